using System.Text;
using Notifications.Consumer.Channels.Push;
using Notifications.Consumer.Channels.Push.Apns;
using Notifications.Consumer.Channels.Push.Fcm;
using Notifications.Shared.Contract;

namespace Notifications.UnitTests.Push;

/// <summary>The exact request bodies and APNs headers a push row becomes.</summary>
public sealed class PushPayloadTests
{
    private static readonly DateTimeOffset Now = new(2026, 11, 25, 12, 0, 0, TimeSpan.Zero);

    [Fact]
    public void FcmBuild_AlertWithDataAndExpiry_NotificationDataAndanAndroidHighWithTtl()
    {
        var message = Message("Shipped", "It arrives \"tomorrow\".", """{"order": "42", "kind": "ship"}""") with { ExpiresAt = Now.AddMinutes(90) };

        string body = Fcm(message, "tok:en-1");

        Assert.Equal("""{"message":{"token":"tok:en-1","notification":{"title":"Shipped","body":"It arrives \u0022tomorrow\u0022."},"data":{"order":"42","kind":"ship"},"android":{"priority":"high","ttl":"5400s"}}}""", body);
    }

    [Fact]
    public void FcmBuild_BulkDataOnlyWithoutExpiry_NoNotificationNormalPriorityNoTtl()
    {
        var message = Message("", "", """{"sync": "1"}""") with { Priority = "bulk" };

        Assert.Equal("""{"message":{"token":"t","data":{"sync":"1"},"android":{"priority":"normal"}}}""", Fcm(message, "t"));
    }

    [Fact]
    public void FcmBuild_PayloadOver4096Bytes_RefusedWithSize()
    {
        var message = Message("T", "B", $$"""{"pad": "{{new string('x', 4095)}}"}""");

        var body = FcmPayload.Build(message, "t", PushData.Entries(message.Data), Now, out string? refused);

        Assert.Null(body);
        Assert.Equal("push payload too large: 4100 bytes of FCM data and notification, over the 4096-byte limit", refused);
    }

    [Fact]
    public void ApnsBuild_Alert_ApsAlertAndCustomKeysAtTopLevel()
    {
        var message = Message("Shipped", "Tomorrow", """{"order": "42"}""");

        var body = ApnsPayload.Build(message, PushData.Entries(message.Data), out _);

        Assert.Equal("""{"aps":{"alert":{"title":"Shipped","body":"Tomorrow"}},"order":"42"}""", Encoding.UTF8.GetString(body!));
    }

    [Fact]
    public void ApnsBuild_DataOnly_ContentAvailableBackgroundPriority5()
    {
        var message = Message("", "", """{"sync": "1"}""");

        var body = ApnsPayload.Build(message, PushData.Entries(message.Data), out _);
        var headers = ApnsPayload.Headers(message);

        Assert.Equal("""{"aps":{"content-available":1},"sync":"1"}""", Encoding.UTF8.GetString(body!));
        Assert.Equal(("background", 5, 0L), (headers.PushType, headers.Priority, headers.Expiration));
    }

    [Theory]
    [InlineData(null, 10)]
    [InlineData("urgent", 10)]
    [InlineData("bulk", 5)]
    public void ApnsHeaders_AlertByPriority_Priority10Or5AndExpirationFromRow(string? priority, int expected)
    {
        var message = Message("T", "B", null) with { Priority = priority, ExpiresAt = Now.AddHours(1) };

        var headers = ApnsPayload.Headers(message);

        Assert.Equal(("alert", expected, Now.AddHours(1).ToUnixTimeSeconds()), (headers.PushType, headers.Priority, headers.Expiration));
    }

    [Fact]
    public void ApnsBuild_ApsInData_Refused()
    {
        var message = Message("T", "B", """{"aps": "x"}""");

        Assert.Null(ApnsPayload.Build(message, PushData.Entries(message.Data), out string? refused));
        Assert.Equal("invalid push data for APNs: the key 'aps' is Apple's own", refused);
    }

    [Fact]
    public void ApnsBuild_PayloadOver4096Bytes_RefusedWithSize()
    {
        var message = Message("T", "B", $$"""{"pad": "{{new string('x', 4060)}}"}""");

        Assert.Null(ApnsPayload.Build(message, PushData.Entries(message.Data), out string? refused));
        Assert.StartsWith("push payload too large: the APNs payload is 4111 bytes", refused, StringComparison.Ordinal);
    }

    [Fact]
    public void ApnsIdFor_SameIdSameUuidOtherIdOther_Version5()
    {
        var id = ApnsPayload.IdFor(42);

        Assert.Equal(id, ApnsPayload.IdFor(42));
        Assert.NotEqual(id, ApnsPayload.IdFor(43));
        Assert.Equal(5, id.Version);
        Assert.Contains(id.ToString("D")[19], "89ab");   // the RFC 9562 variant
    }

    private static NotificationMessage Message(string subject, string body, string? data) =>
        new(7, "fcm:t", subject, body, IsHtml: false, Now, ExpiresAt: null) { Channel = NotificationChannels.Push, Data = data };

    private static string Fcm(NotificationMessage message, string token) =>
        Encoding.UTF8.GetString(FcmPayload.Build(message, token, PushData.Entries(message.Data), Now, out _)!);
}
