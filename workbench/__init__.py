"""The TOFS Workbench application: the Textual interface and the headless CLI."""
