"""The production application: command line, render jobs and runners, audio, captions, page, decks."""
