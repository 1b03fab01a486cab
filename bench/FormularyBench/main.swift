// Placeholder: the benchmark driver is written with the engine.
print("bench: nothing yet")
