namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// What a scenario's fault may rightly end a notification as, besides delivered: the dead-letter reasons it causes (a
/// reason that starts with one of them) and whether it puts addresses on the suppression list. Anything else that keeps a
/// committed notification from its receiver — a transient outage given up on ("gave up after N attempts"), a quorum queue's
/// delivery limit hit by a requeue loop, a suppression the run never asked for — is a loss the oracle counts as one.
/// </summary>
internal sealed record ChaosCauses(IReadOnlyList<string> DeadLetterReasons, bool Suppresses = false)
{
    /// <summary>A fault that causes no dead letter and no suppression: every notification must be received.</summary>
    public static readonly ChaosCauses None = new([]);

    /// <summary>Whether this scenario's fault causes a dead letter for <paramref name="reason"/>.</summary>
    public bool Caused(string reason) => DeadLetterReasons.Any(r => reason.StartsWith(r, StringComparison.Ordinal));

    public override string ToString() =>
        DeadLetterReasons.Count == 0 && !Suppresses ? "none" : string.Join(", ", DeadLetterReasons.Select(r => $"'{r}…'").Concat(Suppresses ? ["suppression"] : []));
}
