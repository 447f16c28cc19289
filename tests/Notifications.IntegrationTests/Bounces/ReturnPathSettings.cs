using Notifications.Shared.Bounces;

namespace Notifications.IntegrationTests.Bounces;

/// <summary>Section <c>Bounces</c> for the tests' consumers, and the same codec the tests read the envelope senders back with.</summary>
internal static class ReturnPathSettings
{
    private const string KeyId = "t1";

    // 32 fixed bytes: a test key, never a real one.
    private static readonly string Secret = Convert.ToBase64String(Enumerable.Range(1, 32).Select(i => (byte)i).ToArray());

    public static (string Key, string? Value)[] Settings =>
    [
        ("Bounces:Domain", PostfixWithSink.BounceDomain), ("Bounces:Keys:0:Id", KeyId), ("Bounces:Keys:0:Secret", Secret),
    ];

    public static ReturnPath Codec { get; } = new(new ReturnPathOptions
    {
        Domain = PostfixWithSink.BounceDomain, Keys = [new ReturnPathKey { Id = KeyId, Secret = Secret }],
    });
}
