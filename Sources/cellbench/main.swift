import Tessera
print("cellbench")
