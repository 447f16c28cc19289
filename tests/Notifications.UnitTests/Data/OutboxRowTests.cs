using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Data;

public sealed class OutboxRowTests
{
    [Fact]
    public void ToMessage_MessageHeaderColumns_CarriedAsTheyAre()
    {
        var row = new OutboxRow
        {
            Id = 7, Recipient = "a@example.com", Subject = "s", Body = "b",
            ReplyTo = "r@example.com", Cc = "c@example.com", Bcc = "b@example.com", Headers = """{"X-A":"1"}""",
        };

        NotificationMessage message = row.ToMessage();

        Assert.Equal(("r@example.com", "c@example.com", "b@example.com", """{"X-A":"1"}"""), (message.ReplyTo, message.Cc, message.Bcc, message.Headers));
    }

    [Fact]
    public void ToMessage_NoMessageHeaderColumns_AllNull()
    {
        NotificationMessage message = new OutboxRow { Id = 7, Recipient = "a@example.com", Subject = "s", Body = "b" }.ToMessage();

        Assert.Equal((null, null, null, null), (message.ReplyTo, message.Cc, message.Bcc, message.Headers));
    }
}
