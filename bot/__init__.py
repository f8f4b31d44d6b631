"""The Discord layer of piecepack-bot: commands, lobbies, storage, timers and delivery."""
