print("hlscheck")
