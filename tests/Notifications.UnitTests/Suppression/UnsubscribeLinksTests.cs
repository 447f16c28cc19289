using System.Text.RegularExpressions;
using Microsoft.Extensions.Logging.Abstractions;
using Microsoft.Extensions.Options;
using Notifications.Consumer.Channels.Email.Unsubscribe;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Suppression;

public sealed partial class UnsubscribeLinksTests
{
    private static readonly UnsubscribeOptions Configured = new()
    {
        UrlTemplate = "https://mail.example.test/unsubscribe?token={token}",
        Mailto = "unsubscribe@example.test",
        SigningKey = "a-test-key-of-at-least-32-characters!",
    };

    [Fact]
    public void HeadersFor_BulkMessage_MailtoAndHttpsWithAVerifyingTokenAndOneClickPost()
    {
        var links = new UnsubscribeLinks(Options.Create(Configured), NullLogger<UnsubscribeLinks>.Instance);

        var headers = links.HeadersFor(Message("bulk"))!.ToDictionary();

        Assert.Equal(UnsubscribeLinks.OneClick, headers["List-Unsubscribe-Post"]);
        var match = HeaderPattern().Match(headers["List-Unsubscribe"]);
        Assert.True(match.Success, headers["List-Unsubscribe"]);
        var check = links.Token!.Verify(match.Groups["token"].Value);
        Assert.Equal((UnsubscribeTokenOutcome.Valid, 7L, "user@example.test"), (check.Outcome, check.NotificationId, check.Address));
    }

    [Theory]
    [InlineData(null)]
    [InlineData("normal")]
    [InlineData("urgent")]
    public void HeadersFor_TransactionalMessage_None(string? priority)
    {
        var links = new UnsubscribeLinks(Options.Create(Configured), NullLogger<UnsubscribeLinks>.Instance);

        Assert.Null(links.HeadersFor(Message(priority)));
    }

    [Fact]
    public void HeadersFor_MailtoOnly_ListUnsubscribeWithoutPost()
    {
        var links = new UnsubscribeLinks(Options.Create(new UnsubscribeOptions { Mailto = "u@example.test" }), NullLogger<UnsubscribeLinks>.Instance);

        var header = Assert.Single(links.HeadersFor(Message("bulk"))!);

        Assert.Equal(("List-Unsubscribe", "<mailto:u@example.test?subject=unsubscribe>"), (header.Key, header.Value));
        Assert.Null(links.Token);
    }

    [Theory]
    [InlineData("http://mail.example.test/u?token={token}", "a-test-key-of-at-least-32-characters!", "must be an https URL")]
    [InlineData("https://mail.example.test/u", "a-test-key-of-at-least-32-characters!", "must contain {token}")]
    [InlineData("https://mail.example.test/u?token={token}", null, "needs a signing key")]
    [InlineData("https://mail.example.test/u?token={token}", "short", "at least 32 characters")]
    public void Validate_BadConfiguration_FailsNamingTheKey(string template, string? key, string expected)
    {
        var result = new UnsubscribeOptionsValidator().Validate(null, new UnsubscribeOptions { UrlTemplate = template, SigningKey = key });

        Assert.True(result.Failed);
        Assert.Contains(expected, result.FailureMessage, StringComparison.Ordinal);
    }

    private static NotificationMessage Message(string? priority) =>
        new(7, "User@Example.test", "s", "b", false, DateTimeOffset.UnixEpoch, null) { Priority = priority };

    [GeneratedRegex(@"^<mailto:unsubscribe@example\.test\?subject=unsubscribe>, <https://mail\.example\.test/unsubscribe\?token=(?<token>[A-Za-z0-9_\-]+\.[A-Za-z0-9_\-]+)>$")]
    private static partial Regex HeaderPattern();
}
