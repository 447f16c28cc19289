using Notifications.Client;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Client;

/// <summary>
/// A row's own From display name (<see cref="NewNotification.FromName"/>) as the client checks it at enqueue, before any
/// database, and as the consumer checks a row that came by plain SQL: the same rule (<c>FromNameRules</c>) in both.
/// </summary>
public sealed class FromNameTests
{
    [Theory]
    [InlineData("Acme Billing")]
    [InlineData("Zoë Support")]
    [InlineData("\"Acme, Inc.\" <Billing>")]
    [InlineData("株式会社アクメ 📄")]
    public void Of_OneLineName_Accepted(string name)
    {
        var values = OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { FromName = name });

        Assert.Equal(name, values.Notification.FromName);
    }

    [Theory]
    [InlineData("Acme\r\nBcc: victim@example.com", "control character")]
    [InlineData("Acme Billing\n", "control character")]
    [InlineData("Acme\tBilling", "control character")]
    [InlineData("", "empty or blank")]
    [InlineData("   ", "empty or blank")]
    public void Of_BadName_ThrowsNamingFromName(string name, string expected)
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { FromName = name }));

        Assert.Equal(nameof(NewNotification.FromName), refused.ParamName);
        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_NameOfTheLimitInEmoji_AcceptedAndOneMoreRefused()
    {
        // Characters are code points, as the column counts them: 100 emoji are 200 UTF-16 units.
        string atLimit = string.Concat(Enumerable.Repeat("📄", NewNotification.MaxFromNameLength));

        OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { FromName = atLimit });
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { FromName = atLimit + "x" }));

        Assert.Equal(nameof(NewNotification.FromName), refused.ParamName);
        Assert.Contains("longer than 100 characters", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_WebhookWithFromName_ThrowsAsEmailOnly()
    {
        var webhook = NewNotification.Webhook("billing", "invoice.paid", """{"id": 1}""") with { FromName = "Acme" };

        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(webhook));

        Assert.Contains("FromName", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_RowWithMultiLineName_ConsumerGivesTheClientsReason()
    {
        var message = new NotificationMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UtcNow, null) { FromName = "Acme\r\nBcc: victim@example.com" };

        Assert.Equal("invalid from name: contains CR, LF or another control character (header injection)", NotificationValidator.Validate(message));
        Assert.Null(NotificationValidator.Validate(message with { FromName = "Zoë Support" }));
    }
}
