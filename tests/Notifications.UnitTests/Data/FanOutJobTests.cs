using Notifications.Shared.Data;
using Notifications.Shared.Data.FanOut;

namespace Notifications.UnitTests.Data;

/// <summary>
/// An audience row the claim takes: refused with its reason when the outbox's checks would have refused it (a row written
/// where the checks are missing), else its job carries the row as claimed.
/// </summary>
public sealed class FanOutJobTests
{
    [Theory]
    [InlineData("topic:news", "push", null)]
    [InlineData("subscriber:ana-1", "email,push", null)]
    [InlineData("topic:News", "push", "invalid audience: 'topic:News' is not subscriber:<id> or topic:<name>")]
    [InlineData("ana@example.com", "email", "invalid audience: 'ana@example.com' is not subscriber:<id> or topic:<name>")]
    [InlineData("topic:news", null, "invalid audience channels: '' is not one of email, push, email,push, live, email,live, push,live, email,push,live, live>push, email,live>push")]
    [InlineData("topic:news", "push,email", "invalid audience channels: 'push,email' is not one of email, push, email,push, live, email,live, push,live, email,push,live, live>push, email,live>push")]
    public void Refusal_AudienceRow_NullOrTheReason(string recipient, string? channels, string? reason)
    {
        var row = new OutboxRow { Id = 7, Recipient = recipient, Channel = "audience", Channels = channels };

        Assert.Equal(reason, FanOutJob.Refusal(row));
    }

    [Theory]
    [InlineData("email", null)]
    [InlineData("push", "invalid audience channels: a template renders email only, not 'push'")]
    [InlineData("email,push", "invalid audience channels: a template renders email only, not 'email,push'")]
    public void Refusal_TemplatedAudienceRow_EmailOnly(string channels, string? reason)
    {
        var row = new OutboxRow { Id = 7, Recipient = "topic:news", Channel = "audience", Channels = channels, TemplateName = "digest", TemplateData = "{}" };

        Assert.Equal(reason, FanOutJob.Refusal(row));
    }

    [Fact]
    public void Of_AudienceRow_JobCarriesTheRow()
    {
        var row = new OutboxRow { Id = 7, Recipient = "topic:news", Channel = "audience", Channels = "push", Category = "news", Subject = "Polls closed" };

        var job = FanOutJob.Of(row);

        Assert.Equal((7L, "topic:news", "push", "news"), (job.Id, job.Audience, job.Channels, job.Category));
        Assert.Same(row, job.Parent);
        Assert.Equal("Polls closed", FanOutParentJson.Deserialize(FanOutParentJson.Serialize(row)).Subject);
    }
}
