"""What the lecture is: its scenes in order (clips), and the lecturer's file and its checks (config)."""
