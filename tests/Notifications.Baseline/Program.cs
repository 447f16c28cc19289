using System.Runtime.InteropServices;
using Microsoft.Extensions.Configuration;
using Notifications.Baseline;
using Npgsql;
using RabbitMQ.Client.Exceptions;

// The original experiment's consumer, run by the benchmark harness (scripts/bench run --baseline); docs/benchmarks/README.md.
if (args.Any(a => a is "--help" or "-h" or "-?"))
{
    Console.WriteLine(BaselineOptions.Help);
    return 0;
}

BaselineOptions options;
try
{
    var configuration = new ConfigurationBuilder().AddEnvironmentVariables().AddCommandLine(args).Build();
    options = BaselineOptions.Read(configuration);
}
catch (ArgumentException ex)
{
    Console.Error.WriteLine($"error: invalid configuration: {ex.Message} (see --help)");
    return 2;
}

using var shutdown = new CancellationTokenSource();
void Stop(PosixSignalContext context)
{
    context.Cancel = true;
    shutdown.Cancel();
}

using var sigterm = PosixSignalRegistration.Create(PosixSignal.SIGTERM, Stop);
using var sigint = PosixSignalRegistration.Create(PosixSignal.SIGINT, Stop);
try
{
    return await new MessageConsumer(options).RunAsync(shutdown.Token);
}
catch (Exception ex) when (ex is BrokerUnreachableException or OperationInterruptedException or NpgsqlException)
{
    Console.Error.WriteLine($"error: {ex.GetType().Name}: {ex.Message}");
    return 1;
}
