using System.Data.Common;
using Notifications.Client;
using Notifications.Client.SqlServer;

namespace Notifications.UnitTests.Client;

/// <summary>
/// The audience registry's shapes (Shared/Contract/AudienceRules, compiled into the client) as an app meets them: refused by
/// <see cref="ISubscriberRegistry"/> with the rule, before any transaction is used (these pass none).
/// </summary>
public sealed class AudienceRulesTests
{
    private const string Fcm = "dQw4w9WgXcQ:APA91bH-token_1";
    private static readonly ISubscriberRegistry Registry = new DbSubscriberRegistry(SqlServerOutboxDialect.Instance, "notifications");
    private static readonly DbTransaction NoTransaction = null!;

    [Theory]
    [InlineData("", "invalid subscriber id")]
    [InlineData("has space", "invalid subscriber id: 'has space'")]
    [InlineData("-leading", "invalid subscriber id")]
    [InlineData("line\n", "invalid subscriber id")]
    [InlineData("é", "invalid subscriber id")]
    public async Task UpsertSubscriberAsync_BadId_Refused(string id, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.UpsertSubscriberAsync(NoTransaction, new Subscriber(id)));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task UpsertSubscriberAsync_IdOf129Characters_RefusedAt128()
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.UpsertSubscriberAsync(NoTransaction, new Subscriber(new string('a', 129))));

        Assert.Contains("1-128", refused.Message, StringComparison.Ordinal);
        await Assert.ThrowsAsync<ArgumentNullException>(() => Registry.UpsertSubscriberAsync(NoTransaction, new Subscriber(new string('a', 128))));
    }

    [Theory]
    [InlineData("user-42")]
    [InlineData("ana@example.com")]
    [InlineData("tenant:7:user=9+x")]
    [InlineData("0f8fad5b-d9cb-469f-a165-70867728950e")]
    public async Task UpsertSubscriberAsync_GoodId_PassesTheRulesAndAsksForATransaction(string id)
    {
        // The rules passed: the next check is the transaction's.
        await Assert.ThrowsAsync<ArgumentNullException>(() => Registry.UpsertSubscriberAsync(NoTransaction, new Subscriber(id, "pt-BR", "America/Argentina/Buenos_Aires")));
    }

    [Theory]
    [InlineData("pt_BR", null, "invalid locale")]
    [InlineData("en", "Europe/../etc", "invalid time zone")]
    [InlineData("en", "Europe Lisbon", "invalid time zone")]
    public async Task UpsertSubscriberAsync_BadLocaleOrTimeZone_Refused(string locale, string? timeZone, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.UpsertSubscriberAsync(NoTransaction, new Subscriber("ana", locale, timeZone)));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("Breaking", "invalid topic name: 'Breaking'")]
    [InlineData("", "invalid topic name")]
    [InlineData("news/sport", "invalid topic name")]
    [InlineData(".hidden", "invalid topic name")]
    public async Task SubscribeAsync_BadTopic_Refused(string topic, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.SubscribeAsync(NoTransaction, "ana", topic));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Fact]
    public async Task SubscribeAsync_TopicOf129Characters_Refused()
    {
        await Assert.ThrowsAsync<ArgumentException>(() => Registry.SubscribeAsync(NoTransaction, "ana", new string('t', 129)));
        await Assert.ThrowsAsync<ArgumentNullException>(() => Registry.SubscribeAsync(NoTransaction, "ana", new string('t', 128)));
    }

    [Theory]
    [InlineData("Marketing", "email", "invalid category name")]
    [InlineData("marketing", "sms", "invalid channel: 'sms' is not one of email, push, live")]
    [InlineData("marketing", "Email", "invalid channel")]
    public async Task SetPreferenceAsync_BadCategoryOrChannel_Refused(string category, string channel, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.SetPreferenceAsync(NoTransaction, "ana", category, channel, enabled: false));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("gcm", Fcm, "invalid push provider 'gcm'")]
    [InlineData("fcm", "", "invalid FCM registration token")]
    [InlineData("fcm", "tok en", "invalid FCM registration token")]
    [InlineData("apns", "abc", "APNs")]
    public async Task AddDeviceAsync_BadDevice_Refused(string provider, string token, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.AddDeviceAsync(NoTransaction, "ana", new PushDevice(provider, token)));

        Assert.Contains(expected, refused.Message, StringComparison.OrdinalIgnoreCase);
    }

    [Fact]
    public async Task AddDeviceAsync_TokenBeyondTheSuppressionKeysLimit_Refused()
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.AddDeviceAsync(NoTransaction, "ana", PushDevice.Fcm(new string('a', 317))));

        Assert.Contains("the registry's limit is 320", refused.Message, StringComparison.Ordinal);
        await Assert.ThrowsAsync<ArgumentNullException>(() => Registry.AddDeviceAsync(NoTransaction, "ana", PushDevice.Fcm(new string('a', 316))));
    }

    [Fact]
    public async Task AddDeviceAsync_AppIdWithControlCharacters_Refused()
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.AddDeviceAsync(NoTransaction, "ana", PushDevice.Fcm(Fcm, "com.example\napp")));

        Assert.Contains("invalid app id", refused.Message, StringComparison.Ordinal);
    }

    [Theory]
    [InlineData("", "empty")]
    [InlineData("ana", "is not local-part@domain")]
    [InlineData("ana@", "is not local-part@domain")]
    [InlineData("Ana <ana@example.com>", "not a bare address")]
    public async Task AddEmailAsync_BadAddress_Refused(string address, string expected)
    {
        var refused = await Assert.ThrowsAsync<ArgumentException>(() => Registry.AddEmailAsync(NoTransaction, "ana", address));

        Assert.Contains(expected, refused.Message, StringComparison.Ordinal);
    }
}
