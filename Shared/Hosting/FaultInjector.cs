using System.Diagnostics;
using System.Globalization;
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
    /// <c>after-inbox-row</c> (consumer: a broker dead letter's rows written, nothing moved or acked).
    /// </summary>
    public string? KillAt { get; set; }
}

/// <summary>Kills this process at a configured point, the way a crash would: no cleanup, no flush.</summary>
public sealed class FaultInjector
{
    private readonly string? _point;
    private readonly long _at;
    private long _reached;

    /// <summary>Reads <see cref="FaultOptions.KillAt"/>.</summary>
    public FaultInjector(IOptions<FaultOptions> options)
    {
        ArgumentNullException.ThrowIfNull(options);
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

        _point = parts[0];
    }

    /// <summary>Marks that <paramref name="point"/> was reached; kills the process when it is the configured one.</summary>
    public void Reached(string point)
    {
        if (_point is not null && point == _point && Interlocked.Increment(ref _reached) == _at)
        {
            Console.Error.WriteLine($"fault injection: SIGKILL at {point}:{_at}");
            Process.GetCurrentProcess().Kill();
        }
    }
}
