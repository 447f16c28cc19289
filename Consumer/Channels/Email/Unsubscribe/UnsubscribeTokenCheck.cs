namespace Notifications.Consumer.Channels.Email.Unsubscribe;

/// <summary>What <see cref="UnsubscribeToken.Verify"/> made of a token.</summary>
internal enum UnsubscribeTokenOutcome
{
    /// <summary>Signed with the key: the address may be unsubscribed.</summary>
    Valid,

    /// <summary>Not a token at all (missing, no dot, not base64url).</summary>
    Malformed,

    /// <summary>Well formed, but its signature is not the key's: made or altered by someone else.</summary>
    Forged,
}

/// <summary>The outcome of a token check and, when valid, what it names.</summary>
internal sealed record UnsubscribeTokenCheck(UnsubscribeTokenOutcome Outcome, long NotificationId, string Address)
{
    public static readonly UnsubscribeTokenCheck Malformed = new(UnsubscribeTokenOutcome.Malformed, 0, "");

    public static readonly UnsubscribeTokenCheck Forged = new(UnsubscribeTokenOutcome.Forged, 0, "");
}
