"""The EDAPS package's screens, widgets and tables."""
