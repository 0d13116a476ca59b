"""The bridge package's screens, widgets and commands."""
