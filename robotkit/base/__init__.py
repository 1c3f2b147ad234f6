"""The vocabulary every layer speaks: the clock, reason codes, snapshots, outcomes,
header values and the robot's identity; imports nothing else of robotkit."""
