from diskmodel.cli import main

main()
