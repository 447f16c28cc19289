using System.Globalization;
using Notifications.Harness;
using Notifications.Harness.FanOut;
using Notifications.Harness.Live;

// scripts/bench builds Release and runs this from the repository root; see docs/benchmarks/README.md.
HarnessOptions options;
try
{
    options = HarnessOptions.Parse(args);
}
catch (Exception ex) when (ex is ArgumentException or FormatException)
{
    Console.Error.WriteLine($"error: {ex.Message}");
    return 2;
}

if (options.Mode == "receiver")
{
    // A receiving server alone, as a process of its own: no database, broker or workers.
    return await new ReceiverCommand(options).RunAsync();
}

if (options.Mode == "live-clients")
{
    // A share of a live run's clients, in a process of its own (the open-files limit is per process).
    return await LiveClientProcess.RunAsync(options);
}

if (options.Mode == "console-ops")
{
    // The console's operations at volume, on a database scripts/console-bench seeded: no broker, no workers.
    return await Notifications.Harness.ConsoleOps.ConsoleOperationsBench.RunAsync(options);
}

var env = BenchEnvironment.FromVariables(options);
await using var db = new BenchDatabase(env.Postgres);
if (options.Mode == "inserts")
{
    // The business apps' insert rate with and without the urgent-wake trigger: the database alone.
    return await new InsertsCommand(options, db).RunAsync();
}

await using var broker = await BenchBroker.ConnectAsync(env.RabbitMq, options.Queue);
string name = $"{options.Mode}-{DateTime.UtcNow.ToString("yyyyMMdd-HHmmss", CultureInfo.InvariantCulture)}";
var ceilings = new CeilingRunner(env, options, db, broker);
return options.Mode switch
{
    "sweep" => await new SweepCommand(env, options, db, broker).RunAsync(name),
    "latency" => await new LatencyCommand(env, options, db, broker).RunAsync(name),
    "ceilings" => await ceilings.RunOnlyAsync(name),
    "priority" => await new PriorityCommand(env, options, db, broker).RunAsync(name),
    "fanout" => await new FanOutCommand(env, options, db, broker).RunAsync(name),
    "live" => await new LiveCommand(env, options, db, broker).RunAsync(name),
    _ => await new RunCommand(env, options, db, broker, ceilings).RunAsync(name),
};
