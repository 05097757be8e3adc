"""The drawing kit: colours and sizes, text, widgets, plots, tokens and sentences, equation steps."""
