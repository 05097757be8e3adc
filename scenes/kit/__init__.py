"""The drawing kit: theme, widgets, base scene, voice."""
