"""Pure planning: the TOFS engine.  No Textual, no SQLite, no domain knowledge."""
