using System.Diagnostics;
using System.Globalization;
using Microsoft.Extensions.Hosting;
using Microsoft.Extensions.Logging;
using Microsoft.Extensions.Options;

namespace Notifications.Shared.Hosting;

/// <summary>Test hook for the fault suite (scripts/chaos). Section <c>Faults</c>; off unless set.</summary>
public sealed class FaultOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Faults";

    /// <summary>
    /// <c>point:n</c> — the process SIGKILLs itself the n-th time it reaches <c>point</c>: <c>before-commit</c>
    /// (producer: every confirm in, outbox transaction not committed), <c>after-send</c> (consumer: the SMTP
    /// server said 250, nothing logged or acked), <c>after-ack</c> (consumer, at-most-once: acked, not sent),
    /// <c>after-suppress</c> (consumer: a hard bounce's address suppressed, not dead-lettered yet),
    /// <c>after-dead-letter-row</c> (consumer: the <c>dead_letter</c> row written, nothing published or acked),
    /// <c>before-send</c> (consumer: a message taken and checked, about to be sent: a poison message that crashes every consumer),
    /// <c>after-inbox-row</c> (consumer: a broker dead letter's rows written, nothing moved or acked),
    /// <c>after-fan-out-page</c> (producer: a fan-out page's deliveries published and confirmed, the job's cursor not moved).
    /// </summary>
    public string? KillAt { get; set; }
}

/// <summary>
/// Kills this process at a configured point, the way a crash would: no cleanup, no flush. A test hook: it is active only
/// in the Development environment or when the process environment has <c>NOTIFICATIONS_TEST_HOOKS=1</c>
/// (<see cref="TestHooksVariable"/>). Anywhere else (Production, Staging, …) a configured <c>Faults:KillAt</c> is refused:
/// the worker logs a warning (EventId 4460) and runs without the hook — a stray test setting must not turn into a
/// fleet that kills itself, nor into a fleet that does not start.
/// </summary>
public sealed partial class FaultInjector
{
    /// <summary>
    /// The test-only switch: an environment variable of the process (not a configuration key, so no appsettings.json,
    /// stack config or secret can turn the hook on), set by the fault suite for the workers it starts.
    /// </summary>
    public const string TestHooksVariable = "NOTIFICATIONS_TEST_HOOKS";

    private readonly string? _point;
    private readonly long _at;
    private long _reached;

    /// <summary>Reads <see cref="FaultOptions.KillAt"/>; active only where test hooks are allowed (see the type).</summary>
    public FaultInjector(IOptions<FaultOptions> options, IHostEnvironment environment, ILogger<FaultInjector> logger)
        : this(options, environment, logger, Environment.GetEnvironmentVariable(TestHooksVariable))
    {
    }

    internal FaultInjector(IOptions<FaultOptions> options, IHostEnvironment environment, ILogger logger, string? testHooks)
    {
        ArgumentNullException.ThrowIfNull(options);
        ArgumentNullException.ThrowIfNull(environment);
        if (options.Value.KillAt is not { Length: > 0 } killAt)
        {
            return;
        }

        string[] parts = killAt.Split(':');
        if (parts.Length != 2 || !long.TryParse(parts[1], NumberStyles.None, CultureInfo.InvariantCulture, out _at) || _at < 1)
        {
            throw new OptionsValidationException(FaultOptions.SectionName, typeof(FaultOptions),
                [$"Faults:KillAt must look like 'after-send:100', not '{killAt}'."]);
        }

        if (!HooksAllowed(environment.EnvironmentName, testHooks))
        {
            LogRefused(logger, killAt, environment.EnvironmentName);
            return;
        }

        _point = parts[0];
    }

    /// <summary>True when a kill point is armed.</summary>
    public bool IsActive => _point is not null;

    /// <summary>Test hooks run in Development, or anywhere with <see cref="TestHooksVariable"/> set to 1.</summary>
    internal static bool HooksAllowed(string environmentName, string? testHooks) =>
        testHooks == "1" || string.Equals(environmentName, Environments.Development, StringComparison.OrdinalIgnoreCase);

    /// <summary>Marks that <paramref name="point"/> was reached; kills the process when it is the configured one.</summary>
    public void Reached(string point)
    {
        if (_point is not null && point == _point && Interlocked.Increment(ref _reached) == _at)
        {
            Console.Error.WriteLine($"fault injection: SIGKILL at {point}:{_at}");
            Process.GetCurrentProcess().Kill();
        }
    }

    [LoggerMessage(EventId = 4460, Level = LogLevel.Warning,
        Message = "Faults:KillAt '{KillAt}' is a test hook and is refused in the {Environment} environment: the hook stays off (set NOTIFICATIONS_TEST_HOOKS=1 in a test's process environment to allow it)")]
    private static partial void LogRefused(ILogger logger, string killAt, string environment);
}
