"""Narration: beats and caption cues (narrator), the voices (piper, festival), the lexicon."""
