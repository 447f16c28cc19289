using Notifications.Client;

namespace Notifications.UnitTests.Client;

/// <summary>
/// Notifications for a subscriber or a topic (<see cref="NewNotification.ToSubscriber"/>, <see cref="NewNotification.ToTopic"/>)
/// as the client builds and refuses them at enqueue, before any database; the outbox's checks hold the same shapes.
/// </summary>
public sealed class AudienceNotificationTests
{
    [Fact]
    public void ToSubscriber_BothChannels_RowForTheFanOutStage()
    {
        var values = OutboxValues.Of(NewNotification.ToSubscriber(
            "user-42@shop", "Shipped", "Parcel 42.", AudienceChannels.Email | AudienceChannels.Push, new Dictionary<string, string> { ["order"] = "42" }));

        Assert.Equal(("subscriber:user-42@shop", "audience", "email,push", """{"order":"42"}"""),
            (values.Notification.Recipient, values.Notification.Channel, values.Notification.Channels, values.Notification.Data));
    }

    [Theory]
    [InlineData(AudienceChannels.Email, "email")]
    [InlineData(AudienceChannels.Push, "push")]
    public void ToTopic_OneChannel_ItsColumnValue(AudienceChannels channels, string column)
    {
        var notification = NewNotification.ToTopic("breaking-news", "Title", "Text", channels) with { Category = "news" };

        Assert.Equal(("topic:breaking-news", column), (notification.Recipient, notification.Channels));
        Assert.Contains(notification.Channels, new[] { "email", "push", "email,push" });
        Assert.Equal("news", OutboxValues.Of(notification).Notification.Category);
    }

    [Fact]
    public void ToSubscriberFromTemplate_EmailOnly_TemplateColumnsNoSubjectOrBody_LocaleLeftToTheSubscriber()
    {
        var notification = NewNotification.ToSubscriberFromTemplate("ana-1", "order-shipped", new System.Text.Json.Nodes.JsonObject { ["order"] = 42 });

        Assert.Equal(("subscriber:ana-1", "audience", "email", "order-shipped", """{"order":42}""", null),
            (notification.Recipient, notification.Channel, notification.Channels, notification.TemplateName, notification.TemplateData, notification.Locale));
        Assert.Equal("", notification.Subject);
        Assert.Equal("pt-BR", NewNotification.ToTopicFromTemplate("news", "digest", [], "pt-BR").Locale);
    }

    [Fact]
    public void ToTopicFromTemplate_BadTopicOrTemplateName_RefusedNamingWhich()
    {
        var topic = Assert.Throws<ArgumentException>(() => NewNotification.ToTopicFromTemplate("Breaking News", "digest", []));
        var name = Assert.Throws<ArgumentException>(() => NewNotification.ToTopicFromTemplate("news", " ", []));

        Assert.Equal(("topic", "templateName"), (topic.ParamName, name.ParamName));
    }

    [Theory]
    [InlineData("Breaking News")]
    [InlineData("-news")]
    [InlineData("")]
    public void ToTopic_BadName_RefusedNamingTheTopic(string topic)
    {
        var refused = Assert.Throws<ArgumentException>(() => NewNotification.ToTopic(topic, "T", "B", AudienceChannels.Push));

        Assert.Equal("topic", refused.ParamName);
        Assert.Contains("invalid topic name", refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public void ToSubscriber_BadIdOrNoChannelOrPushDataWithoutPush_Refused()
    {
        Assert.Equal("subscriberId", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana smith", "T", "B", AudienceChannels.Email)).ParamName);
        Assert.Equal("channels", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana", "T", "B", 0)).ParamName);
        Assert.Equal("channels", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana", "T", "B", (AudienceChannels)16)).ParamName);
        Assert.Equal("channels", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana", "T", "B", AudienceChannels.LiveThenPush | AudienceChannels.Push)).ParamName);
        Assert.Equal("pushData", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber(
            "ana", "T", "B", AudienceChannels.Email, new Dictionary<string, string> { ["k"] = "v" })).ParamName);
    }

    [Theory]
    [InlineData(AudienceChannels.Live, "live")]
    [InlineData(AudienceChannels.Email | AudienceChannels.Live, "email,live")]
    [InlineData(AudienceChannels.Email | AudienceChannels.Push | AudienceChannels.Live, "email,push,live")]
    [InlineData(AudienceChannels.LiveThenPush, "live>push")]
    [InlineData(AudienceChannels.Email | AudienceChannels.LiveThenPush, "email,live>push")]
    public void ToTopic_LiveChannels_OneSpellingTheOutboxTakes(AudienceChannels channels, string column)
    {
        var notification = NewNotification.ToTopic("riders", "T", "B", channels, new Dictionary<string, string> { ["ride"] = "r-7" });

        Assert.Equal(column, notification.Channels);
    }

    [Fact]
    public void ToSubscriber_ContentAChannelRefuses_Refused()
    {
        // Email: a subject of one line; push: at most 4 KB of title, text and data together.
        Assert.Equal("subject", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana", "Two\nlines", "B", AudienceChannels.Email)).ParamName);
        Assert.Equal("pushData", Assert.Throws<ArgumentException>(() => NewNotification.ToSubscriber("ana", "T", new string('x', 5000), AudienceChannels.Push)).ParamName);
        Assert.NotNull(NewNotification.ToSubscriber("ana", "T", new string('x', 5000), AudienceChannels.Email));
    }

    [Fact]
    public void Of_AudienceWithAnEmailOnlyField_RefusedSayingWhatItTakes()
    {
        var refused = Assert.Throws<ArgumentException>(() => OutboxValues.Of(
            NewNotification.ToTopic("news", "T", "B", AudienceChannels.Email) with { Cc = "boss@example.com" }));

        Assert.Equal("Cc", refused.ParamName);
        Assert.Contains("a subscriber or a topic has no Cc", refused.Message, StringComparison.Ordinal);
    }
}
