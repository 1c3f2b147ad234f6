"""The reference crawler: the loop, one URL's fetch and verdict, the report, the saved
state and the turn of a shared worker."""
