namespace Notifications.Shared.Unsubscribe;

/// <summary>What <see cref="UnsubscribeToken.Read"/> made of a token.</summary>
public enum UnsubscribeTokenOutcome
{
    /// <summary>Made with a key of the ring, unaltered, within its lifetime: the address may be unsubscribed.</summary>
    Valid,

    /// <summary>Not a token at all: missing, not base64url, too short or too long, an unknown version.</summary>
    Malformed,

    /// <summary>Names a key the ring does not hold: one retired after its rotation window, or made up.</summary>
    UnknownKey,

    /// <summary>Its authentication tag does not verify under the key it names: altered, or forged.</summary>
    Forged,

    /// <summary>Genuine, but older than the configured lifetime.</summary>
    Expired,
}

/// <summary>The outcome of a token check and, when valid (or expired), what the token carries.</summary>
/// <param name="Outcome">Whether the token may be acted on.</param>
/// <param name="Payload">What the token carries: set when <see cref="Outcome"/> is Valid or Expired, else null.</param>
public sealed record UnsubscribeTokenCheck(UnsubscribeTokenOutcome Outcome, UnsubscribePayload? Payload)
{
    /// <summary>The check of something that is not a token.</summary>
    public static UnsubscribeTokenCheck Malformed { get; } = new(UnsubscribeTokenOutcome.Malformed, null);
}
