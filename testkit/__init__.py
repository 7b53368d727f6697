"""What the tests and the benches run the bot against, installed with the bot so that
`politics-bot bench --live` and `--scale` work from any directory (and in the Docker image):

- testkit.fakediscord — a fake Discord on loopback (REST, gateway, interactions) and the players;
- testkit.pgserver — a throwaway PostgreSQL server (initdb into a temporary directory);
- testkit.leakcheck — every secret token of every seat, checked against what others received.

Nothing here is used by the running bot.
"""
