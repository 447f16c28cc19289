using System.ComponentModel.DataAnnotations;

namespace Notifications.Consumer.Suppression;

/// <summary>
/// The consumer's copy of the suppression list (section <c>Suppression</c>; docs/suppression.md): loaded at start, whole
/// while the list has at most <see cref="CacheEntries"/> entries, else looked up on demand; then refreshed with the rows
/// changed since the last look, every <see cref="RefreshInterval"/>.
/// </summary>
internal sealed class SuppressionOptions
{
    public const string SectionName = "Suppression";

    /// <summary>How often each consumer reads the entries changed since its last look (the longest an entry added elsewhere goes unseen).</summary>
    [Range(typeof(TimeSpan), "00:00:00.100", "01:00:00")]
    public TimeSpan RefreshInterval { get; set; } = TimeSpan.FromSeconds(2);

    /// <summary>
    /// How far behind its newest <c>changed_at</c> each refresh reads again: a change whose transaction committed later
    /// than a newer one's (so was not yet visible at the last look) is still found. Longer than any insert takes to commit.
    /// </summary>
    [Range(typeof(TimeSpan), "00:00:00", "01:00:00")]
    public TimeSpan RefreshOverlap { get; set; } = TimeSpan.FromSeconds(30);

    /// <summary>
    /// The most keys a consumer holds in memory. A list of at most this many entries is held whole (no round trip per
    /// notification); a longer one is looked up on demand, concurrent handlers' lookups as one statement, and the answers
    /// kept up to this many (the least recently used make room).
    /// </summary>
    [Range(10, 10_000_000)]
    public int CacheEntries { get; set; } = 100_000;
}
