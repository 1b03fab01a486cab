// Placeholder: the command is written on top of FormularyKit.
print("formulary")
