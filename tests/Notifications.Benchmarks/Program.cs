using BenchmarkDotNet.Running;

// Not run by scripts/test. Run all:  dotnet run -c Release --project tests/Notifications.Benchmarks -- --filter '*'
BenchmarkSwitcher.FromAssembly(typeof(Notifications.Benchmarks.MimeBenchmarks).Assembly).Run(args);
