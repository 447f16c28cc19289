namespace Notifications.Shared.Bounces;

/// <summary>One key of <see cref="ReturnPathOptions.Keys"/> (<c>Bounces:Keys:0:Id</c>, <c>Bounces:Keys:0:Secret</c>).</summary>
public sealed class ReturnPathKey
{
    /// <summary>
    /// The key's name inside every address it signs: 1 to 8 lowercase letters or digits (MTAs may lowercase the local part),
    /// e.g. <c>k2611</c>. Never reused for another secret: mail signed with the old one still bounces for a week.
    /// </summary>
    public string Id { get; set; } = "";

    /// <summary>At least 32 random bytes in base64 (<c>openssl rand -base64 32</c>).</summary>
    public string Secret { get; set; } = "";
}
