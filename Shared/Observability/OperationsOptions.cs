using System.ComponentModel.DataAnnotations;

namespace Notifications.Shared.Observability;

/// <summary>
/// The operations endpoint (Prometheus <c>/metrics</c>, <c>/health/live</c>, <c>/health/ready</c>, <c>/health/started</c>) and
/// the periodic progress log. Section <c>Metrics</c>; env vars <c>Metrics__Port</c> etc.
/// </summary>
public sealed class OperationsOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Metrics";

    /// <summary>Whether the HTTP endpoint runs at all.</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>The address Kestrel binds: <c>127.0.0.1</c> on a shared machine, <c>0.0.0.0</c> in a container.</summary>
    [Required]
    public string Address { get; set; } = "127.0.0.1";

    /// <summary>The port (producer 9464, consumer 9465 by default); 0 picks a free one (tests).</summary>
    [Range(0, 65535)]
    public int Port { get; set; }

    /// <summary>How often an Information line with rates and totals is logged; zero turns it off.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan ProgressInterval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Producer: how often the outbox backlog gauge is refreshed (one <c>count(*)</c>).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan BacklogInterval { get; set; } = TimeSpan.FromSeconds(10);

    /// <summary>Liveness fails when the worker's loop has not reported for this long.</summary>
    [Range(typeof(TimeSpan), "00:00:01", "01:00:00")]
    public TimeSpan LivenessTimeout { get; set; } = TimeSpan.FromMinutes(2);
}
