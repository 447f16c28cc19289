using Notifications.Shared.Data;

namespace Notifications.UnitTests.Webhooks;

/// <summary>An endpoint row: which secrets sign during and after a rotation's overlap, and that printing it shows none.</summary>
public sealed class WebhookEndpointTests
{
    private static readonly DateTimeOffset Until = new(2026, 11, 26, 12, 0, 0, TimeSpan.Zero);

    private static readonly WebhookEndpoint Rotated = new()
    {
        Name = "billing",
        Url = "https://hooks.example.com/in",
        Secret = "whsec_bmV3LXNlY3JldC1rZXktMzItYnl0ZXMtbG9uZyE=",
        PreviousSecret = "whsec_b2xkLXNlY3JldC1rZXktMzItYnl0ZXMtbG9uZyE=",
        PreviousSecretUntil = Until,
    };

    [Fact]
    public void SigningSecrets_DuringOverlap_NewThenPrevious() =>
        Assert.Equal([Rotated.Secret, Rotated.PreviousSecret!], Rotated.SigningSecrets(Until.AddSeconds(-1)));

    [Fact]
    public void SigningSecrets_OverlapOver_NewOnly() => Assert.Equal([Rotated.Secret], Rotated.SigningSecrets(Until));

    [Fact]
    public void ToString_Endpoint_NameAndHostWithoutSecretsOrPath()
    {
        string printed = Rotated.ToString();

        Assert.Equal("billing (https://hooks.example.com/…)", printed);
        Assert.DoesNotContain("whsec_", printed, StringComparison.Ordinal);
        Assert.DoesNotContain("/in", printed, StringComparison.Ordinal);
    }
}
