"""Domain-specific parts of the workbench, one subpackage per knowledge package."""
