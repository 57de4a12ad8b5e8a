from ncclDoctor.cli import main

main()
