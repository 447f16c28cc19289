using System.Globalization;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;
using Notifications.IntegrationTests.Receivers;

namespace Notifications.IntegrationTests.Push;

/// <summary>
/// A push delivery test's world: a clean database, a broker, an SMTP sink (the consumer's email side, unused), the push server with fresh keys, the files a consumer is configured with (service account
/// JSON, .p8 key, the server's certificate as its only trusted root), the consumer settings pointing at the server, and push
/// rows inserted with SQL, each carrying a marker in its data (<see cref="PushLog.NotificationIdKey"/>) the server counts by.
/// </summary>
internal sealed class PushWorld : IAsyncDisposable
{
    public const string Topic = "com.example.notifications";

    private readonly PushTestScope scope;
    private readonly string directory = Directory.CreateTempSubdirectory("push-test-").FullName;
    private int markers;

    private PushWorld(TestDatabase database, TestBroker broker, SmtpSink sink, PushTestScope scope)
    {
        Database = database;
        Broker = broker;
        Sink = sink;
        this.scope = scope;
    }

    public TestDatabase Database { get; }

    public TestBroker Broker { get; }

    public SmtpSink Sink { get; }

    public PushServer Server => scope.Server;

    public PushTestKeys Keys => scope.Keys;

    public static async Task<PushWorld> StartAsync()
    {
        var database = await TestDatabase.CleanAsync();
        var broker = await TestBroker.CreateAsync();
        var sink = await SmtpSink.StartAsync();
        return new(database, broker, sink, await PushTestScope.StartAsync(CancellationToken.None));
    }

    /// <summary>A consumer configured by <see cref="Settings"/> (both providers, or FCM alone), plus <paramref name="more"/>.</summary>
    public Task<WorkerHost> StartConsumerAsync(bool apns = true, params (string Key, string? Value)[] more) =>
        WorkerHost.StartConsumerAsync(Broker, Sink, Settings(apns, more));

    /// <summary>As <see cref="StartConsumerAsync(bool, ValueTuple{string, string}[])"/>, its wiring changed by <paramref name="change"/> first.</summary>
    public Task<WorkerHost> StartConsumerAsync(Action<Microsoft.Extensions.Hosting.IHostApplicationBuilder> change, params (string Key, string? Value)[] more) =>
        WorkerHost.StartConsumerAsync(Broker, Sink, change, Settings(apns: true, more));

    /// <summary>The push server's certificate as a PEM file (what the consumer's trust setting names).</summary>
    public string ServerCertificateFile() => Write("server.pem", Server.Certificate.Certificate.ExportCertificatePem());

    public Task<WorkerHost> StartProducerAsync() => WorkerHost.StartProducerAsync(Broker);

    /// <summary>The consumer settings for both providers (or FCM alone), plus <paramref name="more"/>.</summary>
    private (string Key, string? Value)[] Settings(bool apns, (string Key, string? Value)[] more)
    {
        string credentials = Write("service-account.json", Keys.ServiceAccountJson(Server.TokenUrl));
        (string, string?)[] settings =
        [
            ("Push:TrustedCertificatesFile", ServerCertificateFile()),
            ("Push:Fcm:CredentialsFile", credentials),
            ("Push:Fcm:BaseUrl", Server.FcmBaseUrl.ToString()),
            ("Push:Apns:PrivateKeyFile", apns ? Write("apns.p8", Keys.ApnsKeyPem) : null),
            ("Push:Apns:KeyId", Keys.KeyId),
            ("Push:Apns:TeamId", Keys.TeamId),
            ("Push:Apns:Topic", Topic),
            ("Push:Apns:BaseUrl", Server.ApnsBaseUrl.ToString()),
        ];
        return [.. settings, .. more];
    }

    public static string NewFcmToken() => "fcm-" + Guid.NewGuid().ToString("N") + ":APA91b" + Guid.NewGuid().ToString("N");

    public static string Recipient(string provider, string token) => provider + ":" + token;

    public static string NewApnsToken() => PushRequests.NewDeviceToken();

    /// <summary>Inserts a push row to <paramref name="recipient"/> with a fresh marker (plus <paramref name="extraData"/>); returns (id, marker).</summary>
    public async Task<(long Id, string Marker)> InsertAsync(
        string recipient, string subject = "Your order shipped", string body = "It arrives tomorrow.", string priority = "normal",
        DateTimeOffset? expiresAt = null, string? extraData = null)
    {
        string marker = "m-" + Interlocked.Increment(ref markers).ToString(CultureInfo.InvariantCulture) + "-" + Guid.NewGuid().ToString("N")[..8];
        string data = $$"""{"{{PushLog.NotificationIdKey}}": "{{marker}}"{{(extraData is null ? "" : ", " + extraData)}}}""";
        return (await InsertRawAsync(recipient, subject, body, data, priority, expiresAt), marker);
    }

    /// <summary>Inserts a push row exactly as given; returns its id.</summary>
    public static async Task<long> InsertRawAsync(
        string recipient, string subject, string body, string? data, string priority = "normal", DateTimeOffset? expiresAt = null)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.ExecuteScalarAsync<long>($"""
            INSERT INTO {TestDatabase.Schema}.outbox (channel, recipient, subject, body, data, priority, expires_at)
            VALUES ('push', @recipient, @subject, @body, @data, @priority, @expiresAt) RETURNING id
            """, new { recipient, subject, body, data, priority, expiresAt });
    }

    public static async Task<string?> DeadLetterReasonAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleOrDefaultAsync<string>(
            $"SELECT reason FROM {TestDatabase.Schema}.dead_letter WHERE notification_id = @id", new { id });
    }

    public static async Task<string?> LogStatusAsync(long id)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleOrDefaultAsync<string>(
            $"SELECT status FROM {TestDatabase.Schema}.delivery_log WHERE notification_id = @id", new { id });
    }

    public static async Task<string?> SuppressionReasonAsync(string recipient)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleOrDefaultAsync<string>(
            $"SELECT reason FROM {TestDatabase.Schema}.suppression WHERE address = @recipient AND removed_at IS NULL", new { recipient });
    }

    /// <summary>A subscriber with a push contact point for each of <paramref name="recipients"/> in the audience registry.</summary>
    public static async Task RegisterDevicesAsync(string subscriberId, params string[] recipients)
    {
        await using var connection = await TestDatabase.OpenAsync();
        long id = await connection.ExecuteScalarAsync<long>(
            $"INSERT INTO {TestDatabase.Schema}.subscriber (external_id) VALUES (@subscriberId) RETURNING id", new { subscriberId });
        await connection.ExecuteAsync(
            $"INSERT INTO {TestDatabase.Schema}.contact_point (subscriber_id, channel, address) SELECT @id, 'push', unnest(@recipients)",
            new { id, recipients });
    }

    /// <summary>The registry's dead mark of the push contact point <paramref name="recipient"/> (its reason; null while alive).</summary>
    public static async Task<string?> ContactPointDeadReasonAsync(string recipient)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleAsync<string?>($"""
            SELECT CASE WHEN dead_at IS NULL THEN NULL ELSE coalesce(dead_reason, '(no reason)') END
            FROM {TestDatabase.Schema}.contact_point WHERE channel = 'push' AND address = @recipient
            """, new { recipient });
    }

    public static async Task ClearRateLimitsAsync()
    {
        await using var connection = await TestDatabase.OpenAsync();
        await connection.ExecuteAsync($"DELETE FROM {TestDatabase.Schema}.rate_limit");
    }

    public static async Task<double?> SlowFactorAsync(string key)
    {
        await using var connection = await TestDatabase.OpenAsync();
        return await connection.QuerySingleOrDefaultAsync<double?>(
            $"SELECT slow_factor FROM {TestDatabase.Schema}.rate_limit WHERE name = @key", new { key });
    }

    public IReadOnlyList<PushRequest> RequestsFor(string marker) => [.. Server.Log.Requests.Where(r => r.NotificationId == marker)];

    public async ValueTask DisposeAsync()
    {
        await scope.DisposeAsync();
        await Sink.DisposeAsync();
        await Broker.DisposeAsync();
        Directory.Delete(directory, recursive: true);
    }

    private string Write(string name, string content)
    {
        string path = Path.Combine(directory, name);
        File.WriteAllText(path, content);
        return path;
    }
}
