from gazala_tools.cli import run

run()
