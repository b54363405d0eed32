"""Seeded mutators and hostile samples for every reader (issue 13); ``scripts/fuzz`` runs them."""
