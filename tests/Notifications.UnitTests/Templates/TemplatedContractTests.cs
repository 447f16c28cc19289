using System.Text;
using System.Text.Json.Nodes;
using MimeKit;
using Notifications.Client;
using Notifications.Consumer.Channels.Email;
using Notifications.Shared.Contract;
using Notifications.Shared.Data;

namespace Notifications.UnitTests.Templates;

public sealed class TemplatedContractTests
{
    [Fact]
    public void Serialize_PreparedMessage_HasNoTemplateFields()
    {
        var message = new NotificationMessage(1, "a@example.com", "s", "b", false, DateTimeOffset.UnixEpoch, null);

        string json = Encoding.UTF8.GetString(MessageSerializer.Serialize(message));

        Assert.DoesNotContain("template", json, StringComparison.OrdinalIgnoreCase);
        Assert.DoesNotContain("locale", json, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public void Serialize_TemplatedMessage_RoundTrips()
    {
        var message = new NotificationMessage(1, "a@example.com", null, null, false, DateTimeOffset.UnixEpoch, null)
        {
            TemplateName = "welcome", TemplateData = """{"a":1}""", Locale = "pt-BR",
        };

        Assert.True(MessageSerializer.TryDeserialize(MessageSerializer.Serialize(message), out var read, out _));
        Assert.Equal(message, read);
        Assert.Null(NotificationValidator.Validate(read));
    }

    [Fact]
    public void ToMessage_TemplatedRow_CarriesNameDataAndLocale()
    {
        var row = new OutboxRow { Id = 3, Recipient = "a@example.com", TemplateName = "welcome", TemplateData = """{"a":1}""", Locale = "pt-BR" };

        var message = row.ToMessage();

        Assert.Equal(("welcome", """{"a":1}""", "pt-BR"), (message.TemplateName, message.TemplateData, message.Locale));
        Assert.True(message.IsTemplated);
    }

    [Theory]
    [InlineData("", """{"a":1}""", "invalid template name")]
    [InlineData("welcome", null, "invalid template data: missing")]
    public void Validate_BadTemplatedMessage_HasAReason(string name, string? data, string expected)
    {
        var message = new NotificationMessage(1, "a@example.com", null, null, false, DateTimeOffset.UnixEpoch, null) { TemplateName = name, TemplateData = data };

        Assert.StartsWith(expected, NotificationValidator.Validate(message), StringComparison.Ordinal);
    }

    [Fact]
    public void Validate_TemplatedMessageWithASubjectToo_IsInvalid()
    {
        var message = new NotificationMessage(1, "a@example.com", "s", null, false, DateTimeOffset.UnixEpoch, null) { TemplateName = "welcome", TemplateData = "{}" };

        Assert.StartsWith("invalid templated notification", NotificationValidator.Validate(message), StringComparison.Ordinal);
    }

    [Fact]
    public void Build_HtmlAlternative_IsMultipartAlternativeTextFirst()
    {
        var email = new EmailMessage(5, "a@example.com", "s", "plain", false, DateTimeOffset.UnixEpoch) { HtmlBody = "<p>html</p>" };

        var built = new MimeMessageBuilder("from@example.com", "example.com").Build(email, MailboxAddress.Parse("a@example.com"));
        using var wire = new MemoryStream();
        built.WriteTo(wire);
        wire.Position = 0;
        var message = MimeMessage.Load(wire);

        var alternative = Assert.IsType<MultipartAlternative>(message.Body);
        Assert.Equal("multipart/alternative", alternative.ContentType.MimeType);
        Assert.Equal(["text/plain", "text/html"], alternative.Select(p => p.ContentType.MimeType));
        Assert.Equal("plain\n", message.TextBody);
        Assert.Equal("<p>html</p>\n", message.HtmlBody);
    }

    [Theory]
    [InlineData("[1]")]
    [InlineData("42")]
    [InlineData("{oops")]
    public void FromTemplate_DataNotAJsonObject_Throws(string data)
    {
        Assert.Throws<ArgumentException>(() => NewNotification.FromTemplate("a@example.com", "welcome", data));
    }

    [Fact]
    public void FromTemplate_JsonObject_KeepsNameDataAndLocale()
    {
        var notification = NewNotification.FromTemplate("a@example.com", "welcome", new JsonObject { ["name"] = "Ana" }, "pt-BR");

        Assert.Equal(("welcome", """{"name":"Ana"}""", "pt-BR"), (notification.TemplateName, notification.TemplateData, notification.Locale));
    }
}
