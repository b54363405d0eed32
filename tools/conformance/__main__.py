from tools.conformance.run import main

raise SystemExit(main())
