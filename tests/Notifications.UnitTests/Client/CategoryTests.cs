using Notifications.Client;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Client;

/// <summary>
/// A row's category (<see cref="NewNotification.Category"/>) as the client checks it at enqueue, before any database, on
/// every channel, and as the consumer checks a row that came by plain SQL: one rule (<c>AudienceRules.CategoryName</c>).
/// </summary>
public sealed class CategoryTests
{
    [Theory]
    [InlineData("marketing")]
    [InlineData("orders")]
    [InlineData("team.7_news-letter")]
    [InlineData("0day")]
    public void Of_CategoryName_Accepted(string category)
    {
        var values = OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { Category = category });

        Assert.Equal(category, values.Notification.Category);
    }

    [Theory]
    [InlineData("Marketing")]
    [InlineData("order updates")]
    [InlineData("-leading")]
    [InlineData("")]
    [InlineData("news\r\nBcc: x")]
    public void Of_BadCategory_ThrowsNamingCategory(string category)
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { Category = category }));

        Assert.Equal(nameof(NewNotification.Category), refused.ParamName);
        Assert.Contains("invalid category name", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void Of_CategoryAtTheLimit_AcceptedAndOneMoreRefused()
    {
        string atLimit = new('c', NewNotification.MaxCategoryLength);

        OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { Category = atLimit });
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(new NewNotification("a@example.test", "s", "b") { Category = atLimit + "c" }));

        Assert.Equal(nameof(NewNotification.Category), refused.ParamName);
    }

    [Fact]
    public void Of_PushAndWebhookWithCategory_Accepted()
    {
        // Not an email-only field: a push notification is held back by a push opt-out; a webhook's is never looked at.
        var push = OutboxValues.Of(NewNotification.Push("fcm:token-1", "Shipped", "Order 7") with { Category = "orders" });
        var webhook = OutboxValues.Of(NewNotification.Webhook("billing", "invoice.paid", """{"id": 1}""") with { Category = "billing" });

        Assert.Equal(("orders", "billing"), (push.Notification.Category, webhook.Notification.Category));
    }

    [Fact]
    public void Validate_RowWithBadCategory_ConsumerGivesTheClientsReason()
    {
        var message = new NotificationMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UtcNow, null) { Category = "Marketing" };

        Assert.StartsWith("invalid category name: 'Marketing'", NotificationValidator.Validate(message), StringComparison.Ordinal);
        Assert.Null(NotificationValidator.Validate(message with { Category = "marketing" }));
    }

    [Fact]
    public void Serialize_Category_OnTheWireAndAbsentWhenNull()
    {
        var message = new NotificationMessage(1, "a@example.test", "s", "b", false, DateTimeOffset.UtcNow, null) { Category = "orders" };

        Assert.True(MessageSerializer.TryDeserialize(MessageSerializer.Serialize(message), out var back, out _));
        Assert.Equal("orders", back!.Category);
        Assert.DoesNotContain("Category", System.Text.Encoding.UTF8.GetString(MessageSerializer.Serialize(message with { Category = null })), StringComparison.OrdinalIgnoreCase);
    }
}
