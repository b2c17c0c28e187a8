"""``python -m cipherlab`` runs the command-line interface."""

from cipherlab.cli import main

raise SystemExit(main())
