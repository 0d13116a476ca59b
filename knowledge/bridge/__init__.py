"""Contract bridge: the card-play core for the declarer-play planner (after Tignum 2).

``cards`` (seats, denominations, 52-bit hands), ``deal`` (deals, contracts and the mutable
play state that search makes and unmakes moves on), ``scoring`` (duplicate scores, IMPs)
and ``pbn`` (PBN/LIN records).  Kept import-light on purpose: importing the package loads
nothing; endplay is only imported by the modules that convert to or from it.
"""
