namespace Notifications.Shared.Bounces;

/// <summary>
/// The signed envelope sender (VERP) of outgoing mail (section <c>Bounces</c>): the consumer sends each notification from
/// <c>bounces+&lt;id&gt;.&lt;key id&gt;&lt;mac&gt;@Domain</c>, and the bounce receiver reads the notification back from the
/// address a DSN or complaint comes to. Rotation: put the new key first (it signs), keep the old one after it (it still
/// verifies) until bounces for mail it signed stop arriving, about a week (docs/bounces.md).
/// </summary>
public sealed class ReturnPathOptions
{
    /// <summary>The configuration section name.</summary>
    public const string SectionName = "Bounces";

    /// <summary>The bounce domain (its MX points at the bounce receiver), e.g. <c>bounces.example.com</c>; empty: not configured.</summary>
    public string Domain { get; set; } = "";

    /// <summary>The local part's fixed start, before the <c>+</c>: lowercase letters, digits, <c>-</c> and <c>_</c>.</summary>
    public string LocalPrefix { get; set; } = "bounces";

    /// <summary>The keys: the first signs new addresses, all verify.</summary>
    public IReadOnlyList<ReturnPathKey> Keys { get; set; } = [];

    /// <summary>Whether a bounce domain is set (then <see cref="Keys"/> holds at least one key: the validator insists).</summary>
    public bool IsConfigured => Domain.Length > 0;
}
