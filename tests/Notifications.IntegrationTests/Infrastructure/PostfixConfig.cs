namespace Notifications.IntegrationTests.Infrastructure;

/// <summary>
/// The main.cf, master.cf and transport map of a private Postfix (<see cref="PostfixServer"/>): loopback only, no DNS, no
/// chroot, no TLS, its own queue, data directory and log file, and queue timers in seconds so that a deferral's delay DSN
/// and its expiry bounce come within seconds (Postfix takes time values with an "s" unit).
/// </summary>
internal static class PostfixConfig
{
    public const string DeliveredLocalPart = "kept";
    public const string UnreachableLocalPart = "stalled";

    // Nothing listens on port 1 of loopback (and only root could): every attempt is "connection refused", a deferral.
    private const string RefusingNextHop = "smtp:[127.0.0.1]:1";

    /// <summary>Writes the configuration under <paramref name="root"/>/conf; <paramref name="bounceRoute"/> is a transport map line.</summary>
    public static void Write(string root, int port, string domain, string bounceRoute)
    {
        if (OperatingSystem.IsWindows())
        {
            throw new PlatformNotSupportedException("Postfix runs on Unix only.");
        }

        string conf = Path.Combine(root, "conf");
        Directory.CreateDirectory(conf);

        // The daemons run as postfix and must reach their queue below it. "postfix start" (post-install) makes the queue's
        // subdirectories and the data directory with the owners and modes Postfix checks; the queue directory must exist.
        File.SetUnixFileMode(root, (UnixFileMode)0b111_101_101);
        Directory.CreateDirectory(Path.Combine(root, "queue"));
        File.WriteAllText(Path.Combine(conf, "main.cf"), MainCf(root, domain));
        File.WriteAllText(Path.Combine(conf, "master.cf"), MasterCf(port));
        File.WriteAllText(Path.Combine(conf, "transport"), $"""
            {DeliveredLocalPart}@{domain} discard:
            {UnreachableLocalPart}@{domain} {RefusingNextHop}
            {bounceRoute}

            """);
    }

    private static string MainCf(string root, string domain) => $"""
        compatibility_level = 3.6
        queue_directory = {root}/queue
        data_directory = {root}/data
        maillog_file_prefixes = {root}
        maillog_file = {root}/maillog
        syslog_name = postfix-test
        mail_owner = postfix
        setgid_group = postdrop
        myhostname = mta.{domain}
        mydomain = {domain}
        myorigin = {domain}
        mydestination = {domain}
        mynetworks = 127.0.0.0/8
        inet_interfaces = 127.0.0.1
        inet_protocols = ipv4
        smtpd_banner = $myhostname ESMTP
        smtpd_peername_lookup = no
        smtp_dns_support_level = disabled
        smtp_tls_security_level = none
        smtpd_tls_security_level = none
        # Every recipient of the domain is taken at RCPT TO; an unknown user bounces at local delivery, after acceptance.
        local_recipient_maps =
        alias_maps =
        alias_database =
        biff = no
        transport_maps = texthash:{root}/conf/transport
        delay_warning_time = 1s
        maximal_queue_lifetime = 6s
        bounce_queue_lifetime = 6s
        queue_run_delay = 1s
        minimal_backoff_time = 1s
        maximal_backoff_time = 2s

        """;

    private static string MasterCf(int port) => $"""
        127.0.0.1:{port} inet n - n - - smtpd
        pickup    unix  n - n 60 1 pickup
        cleanup   unix  n - n - 0 cleanup
        qmgr      unix  n - n 300 1 qmgr
        rewrite   unix  - - n - - trivial-rewrite
        bounce    unix  - - n - 0 bounce
        defer     unix  - - n - 0 bounce
        trace     unix  - - n - 0 bounce
        verify    unix  - - n - 1 verify
        flush     unix  n - n 1000? 0 flush
        proxymap  unix  - - n - - proxymap
        smtp      unix  - - n - - smtp
        relay     unix  - - n - - smtp
        showq     unix  n - n - - showq
        error     unix  - - n - - error
        retry     unix  - - n - - error
        discard   unix  - - n - - discard
        local     unix  - n n - - local
        anvil     unix  - - n - 1 anvil
        scache    unix  - - n - 1 scache
        postlog   unix-dgram n - n - 1 postlogd

        """;
}
