"""The build: command line, render workers, audio, publishing."""
