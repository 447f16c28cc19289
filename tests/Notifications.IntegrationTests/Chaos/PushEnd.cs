using System.Globalization;
using System.Net;
using Dapper;
using Notifications.IntegrationTests.Infrastructure;
using Notifications.IntegrationTests.Infrastructure.Receivers;

namespace Notifications.IntegrationTests.Chaos;

/// <summary>
/// The push rows' receiving end: the <see cref="PushServer"/> (FCM HTTP v1 with its OAuth2 token endpoint, and APNs over h2)
/// with fresh keys, and the files a consumer is configured with (<see cref="Settings"/>). Each row carries its own id in its
/// data (<see cref="PushLog.NotificationIdKey"/>), which the server counts by; a notification counts as received when the
/// server's own checks (JWT, headers, payload) passed and it answered 200. A request that failed those checks is a violation.
/// </summary>
internal sealed class PushEnd : IReceivingEnd, IAsyncDisposable
{
    private readonly PushTestKeys _keys;
    private readonly PushServer _server;
    private readonly string _directory = Directory.CreateTempSubdirectory("chaos-push-").FullName;

    private PushEnd(PushTestKeys keys, PushServer server)
    {
        _keys = keys;
        _server = server;
    }

    public string Name => "push server";

    /// <summary>The server (for tests of this end).</summary>
    public PushServer Server => _server;

    /// <summary>The keys the server trusts (for tests of this end).</summary>
    public PushTestKeys Keys => _keys;

    /// <summary>Requests the server refused with a scripted 401 (FCM) or 403 (APNs) so far.</summary>
    public int Refused => _server.Log.Requests.Count(r => r.AnsweredStatus is 401 or 403 && r.Verdict.Accepted);

    public static async Task<PushEnd> StartAsync()
    {
        var keys = new PushTestKeys();
        return new PushEnd(keys, await PushServer.StartAsync(keys.Trust));
    }

    /// <summary>The consumer's settings for both providers: credentials, base URLs, the server's certificate as the only root.</summary>
    public (string Key, string Value)[] Settings() =>
    [
        ("Push:TrustedCertificatesFile", Write("server.pem", _server.Certificate.Certificate.ExportCertificatePem())),
        ("Push:Fcm:CredentialsFile", Write("service-account.json", _keys.ServiceAccountJson(_server.TokenUrl))),
        ("Push:Fcm:BaseUrl", _server.FcmBaseUrl.ToString()),
        ("Push:Apns:PrivateKeyFile", Write("apns.p8", _keys.ApnsKeyPem)),
        ("Push:Apns:KeyId", _keys.KeyId),
        ("Push:Apns:TeamId", _keys.TeamId),
        ("Push:Apns:Topic", "com.example.notifications"),
        ("Push:Apns:BaseUrl", _server.ApnsBaseUrl.ToString()),
    ];

    /// <summary>
    /// Commits <paramref name="count"/> push rows, FCM and APNs in turn, each with its own id in its data, in one statement
    /// (the ids drawn from the outbox's identity first); returns their ids.
    /// </summary>
    public static async Task<IReadOnlyList<long>> InsertAsync(int count)
    {
        const string Schema = TestDatabase.Schema;
        await using var connection = await TestDatabase.OpenAsync();
        var ids = await connection.QueryAsync<long>($$"""
            WITH ids AS (SELECT nextval(pg_get_serial_sequence('{{Schema}}.outbox', 'id')) AS id, g FROM generate_series(1, @count) AS g)
            INSERT INTO {{Schema}}.outbox (id, channel, recipient, subject, body, data)
            SELECT id, 'push',
                   CASE WHEN g % 2 = 0 THEN 'fcm:chaos-' || g || ':APA91b' || md5(g::text) ELSE 'apns:' || md5(g::text) || md5((g + 1)::text) END,
                   'Your order shipped', 'Order ' || g || ' arrives tomorrow.', '{"{{PushLog.NotificationIdKey}}": "' || id || '"}'
            FROM ids
            RETURNING id
            """, new { count });
        return ids.AsList();
    }

    public int MessageCount() => Accepted().Count();

    public IReadOnlyDictionary<long, int> CountByNotificationId() =>
        Accepted().GroupBy(id => id).ToDictionary(g => g.Key, g => g.Count());

    public Task StopAsync() => throw new NotSupportedException("the push server is refused by script (Revoke), not stopped");

    public Task StartAgainAsync() => throw new NotSupportedException("the push server is refused by script (Revoke), not stopped");

    /// <summary>From now on both providers refuse our credentials: FCM 401 UNAUTHENTICATED, APNs 403.</summary>
    public void Revoke()
    {
        _server.FcmScript.Always(ScriptedAnswer.With(HttpStatusCode.Unauthorized));
        _server.ApnsScript.Always(ScriptedAnswer.With(HttpStatusCode.Forbidden));
    }

    /// <summary>Both providers take our credentials again.</summary>
    public void Restore()
    {
        _server.FcmScript.Reset();
        _server.ApnsScript.Reset();
    }

    public IReadOnlyList<string> Violations()
    {
        var refused = _server.Log.Requests.Where(r => !r.Verdict.Accepted).ToList();
        return refused.Count == 0 ? [] :
        [
            string.Create(CultureInfo.InvariantCulture,
                $"{refused.Count} of {_server.Log.Requests.Count} requests failed the push server's checks (first: {refused[0].Provider} {refused[0].Verdict.Status} {refused[0].Verdict.Reason})"),
        ];
    }

    public async ValueTask DisposeAsync()
    {
        await _server.DisposeAsync();
        _keys.Dispose();
        Directory.Delete(_directory, recursive: true);
    }

    private IEnumerable<long> Accepted() =>
        _server.Log.Requests.Where(r => r.Verdict.Accepted && r.AnsweredStatus is 200)
            .Select(r => long.TryParse(r.NotificationId, NumberStyles.None, CultureInfo.InvariantCulture, out long id) ? id : 0)
            .Where(id => id > 0);

    private string Write(string name, string content)
    {
        string path = Path.Combine(_directory, name);
        File.WriteAllText(path, content);
        return path;
    }
}
