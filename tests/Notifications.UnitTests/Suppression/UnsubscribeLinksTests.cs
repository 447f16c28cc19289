using System.Text.RegularExpressions;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.Shared.Contract;
using Notifications.Shared.Unsubscribe;

namespace Notifications.UnitTests.Suppression;

public sealed partial class UnsubscribeLinksTests
{
    private static readonly UnsubscribeOptions Configured = new()
    {
        UrlTemplate = "https://mail.example.test/unsubscribe?token={token}",
        Mailto = "unsubscribe@example.test",
    };

    private static readonly string Key = Convert.ToBase64String(System.Security.Cryptography.RandomNumberGenerator.GetBytes(32));
    private static readonly UnsubscribeToken Tokens = UnsubscribeTokenTests.Tokens(("k1", Key));

    [Fact]
    public void HeadersFor_BulkMessage_MailtoAndHttpsWithAVerifyingTokenAndOneClickPost()
    {
        var links = Links(Configured);

        var headers = links.HeadersFor(Message("bulk"))!.ToDictionary();

        Assert.Equal(UnsubscribeLinks.OneClick, headers["List-Unsubscribe-Post"]);
        var match = HeaderPattern().Match(headers["List-Unsubscribe"]);
        Assert.True(match.Success, headers["List-Unsubscribe"]);
        var check = Tokens.Read(match.Groups["token"].Value);
        Assert.Equal((UnsubscribeTokenOutcome.Valid, 7L, "user@example.test"), (check.Outcome, check.Payload!.NotificationId, check.Payload.Address));
    }

    [Theory]
    [InlineData("marketing")]
    [InlineData(null)]
    public void HeadersFor_BulkMessage_TokenCarriesItsCategory(string? category)
    {
        var links = Links(Configured);

        var headers = links.HeadersFor(Message("bulk") with { Category = category })!.ToDictionary();

        var check = Tokens.Read(HeaderPattern().Match(headers["List-Unsubscribe"]).Groups["token"].Value);
        Assert.Equal((UnsubscribeTokenOutcome.Valid, category), (check.Outcome, check.Payload!.Category));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("normal")]
    [InlineData("urgent")]
    public void HeadersFor_TransactionalMessage_None(string? priority)
    {
        var links = Links(Configured);

        Assert.Null(links.HeadersFor(Message(priority)));
    }

    [Fact]
    public void HeadersFor_MailtoOnly_ListUnsubscribeWithoutPost()
    {
        var links = Links(new UnsubscribeOptions { Mailto = "u@example.test" });

        var header = Assert.Single(links.HeadersFor(Message("bulk"))!);

        Assert.Equal(("List-Unsubscribe", "<mailto:u@example.test?subject=unsubscribe>"), (header.Key, header.Value));
    }

    [Theory]
    [InlineData("http://mail.example.test/u?token={token}", true, null, "must be an https URL")]
    [InlineData("https://mail.example.test/u", true, null, "must contain {token}")]
    [InlineData("https://mail.example.test/u?token={token}", false, null, "needs a key to make tokens with")]
    [InlineData("https://mail.example.test/u?token={token}", true, "an-old-key-of-at-least-32-characters!", "Unsubscribe:LegacySigningKey")]
    public void Validate_BadConfiguration_FailsNamingTheKey(string template, bool ring, string? oldKey, string expected)
    {
        var keys = new UnsubscribeKeyOptions();
        if (ring)
        {
            keys.Keys["k1"] = Key;
        }

        var result = new UnsubscribeOptionsValidator(Options.Create(keys)).Validate(null, new UnsubscribeOptions { UrlTemplate = template, SigningKey = oldKey });

        Assert.True(result.Failed);
        Assert.Contains(expected, result.FailureMessage, StringComparison.Ordinal);
    }

    private static UnsubscribeLinks Links(UnsubscribeOptions options) =>
        new(Options.Create(options), Tokens, TimeProvider.System, NullLogger<UnsubscribeLinks>.Instance);

    private static NotificationMessage Message(string? priority) =>
        new(7, "User@Example.test", "s", "b", false, DateTimeOffset.UnixEpoch, null) { Priority = priority };

    [GeneratedRegex(@"^<mailto:unsubscribe@example\.test\?subject=unsubscribe>, <https://mail\.example\.test/unsubscribe\?token=(?<token>[A-Za-z0-9_\-]+)>$")]
    private static partial Regex HeaderPattern();
}
