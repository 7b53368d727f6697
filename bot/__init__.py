"""The bot: thin glue between the engines and the world (Discord, a terminal, transcripts)."""
