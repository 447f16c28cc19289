using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Options;

namespace Notifications.Shared.Hosting;

/// <summary>What a worker does with its command line besides configuration: <c>--help</c>, and a clear exit on bad configuration.</summary>
public static class WorkerCommandLine
{
    /// <summary>True (after printing the usage) when <paramref name="args"/> asks for help.</summary>
    public static bool PrintedHelp(string[] args, string name, string summary, string sections)
    {
        ArgumentNullException.ThrowIfNull(args);
        if (!args.Any(a => a is "--help" or "-h" or "-?"))
        {
            return false;
        }

        Console.WriteLine($"""
            {name} — {summary}

            Usage: dotnet Notifications.{name}.dll [--Section:Key=value ...]
                   dotnet Notifications.{name}.dll --healthcheck [live|ready|started]

            Configuration comes from appsettings.json beside the dll, environment variables (Section__Key),
            files in /run/secrets named Section__Key (Docker secrets), and --Section:Key=value arguments.
            Sections used: {sections}. Every key, its default and its environment variable: README.md,
            "Configuration". OpenTelemetry takes the standard OTEL_* variables: OTEL_EXPORTER_OTLP_ENDPOINT
            turns on OTLP export of metrics and traces, OTEL_TRACES_SAMPLER(_ARG) sets the sampling. Example:

              Database__ConnectionString='Host=127.0.0.1;Database=notifications;Username=u;Password=p' \
              RabbitMq__Uri=amqp://user:pass@127.0.0.1:5672/ dotnet Notifications.{name}.dll

            The process runs until SIGTERM or Ctrl+C, then finishes its work in hand and exits 0.
            Exit code 2: invalid configuration (the message names the key).
            """);
        return true;
    }

    /// <summary>Runs the host; invalid configuration ends it with a one-line error and exit code 2.</summary>
    public static async Task<int> RunAsync(IHost host)
    {
        ArgumentNullException.ThrowIfNull(host);
        try
        {
            await host.RunAsync();
            // 0, or what a component that stopped the worker set (RecoveryStallGuard: 3).
            return Environment.ExitCode;
        }
        catch (OptionsValidationException ex)
        {
            await Console.Error.WriteLineAsync($"error: invalid configuration: {string.Join("; ", ex.Failures)} (see --help)");
            return 2;
        }
    }
}
