using System.ComponentModel.DataAnnotations;

namespace Notifications.Shared.Retention;

/// <summary>
/// The retention cleanup of old delivery-log and dead-letter rows. Section <c>Retention</c>; env vars
/// <c>Retention__DeliveryLog</c> etc. Run by every consumer (one at a time fleet-wide, by a lease in the
/// database) and by <c>scripts/admin cleanup</c>.
/// </summary>
public sealed class RetentionOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Retention";

    /// <summary>Whether the consumer runs the cleanup in the background (the admin command runs regardless).</summary>
    public bool Enabled { get; set; } = true;

    /// <summary>
    /// How long a 'sent' delivery-log row is kept after it was recorded. At least an hour: at least once, the
    /// row is what recognises a duplicate copy, which may still sit in a retry queue for minutes. Idempotency
    /// keys (table <c>idempotency_key</c>) are kept as long.
    /// </summary>
    [Range(typeof(TimeSpan), "01:00:00", "3650.00:00:00")]
    public TimeSpan DeliveryLog { get; set; } = TimeSpan.FromDays(30);

    /// <summary>How long a dead-letter row is kept after the message was dead-lettered.</summary>
    [Range(typeof(TimeSpan), "01:00:00", "3650.00:00:00")]
    public TimeSpan DeadLetters { get; set; } = TimeSpan.FromDays(30);

    /// <summary>How often the fleet runs the cleanup (the lease's length: one consumer per interval does it).</summary>
    [Range(typeof(TimeSpan), "00:00:01", "7.00:00:00")]
    public TimeSpan Interval { get; set; } = TimeSpan.FromHours(1);

    /// <summary>Rows per delete statement (one short transaction each; below SQL Server's lock escalation at 5,000).</summary>
    [Range(1, 4000)]
    public int BatchSize { get; set; } = 1000;

    /// <summary>Pause between two batches, so the cleanup takes a small share of the database.</summary>
    [Range(typeof(TimeSpan), "00:00:00", "00:01:00")]
    public TimeSpan BatchPause { get; set; } = TimeSpan.FromMilliseconds(50);
}
