<?php
/**
 * The schedule mode, off by default: define('LICENCE_EXAMPLE_SCHEDULE', true) in wp-config.php.
 *
 * A daily WP-Cron event makes the check, and with it the day's call to the service. Pages still
 * call the same functions (licence_example_valide(), message(), essai()), but the client reads its
 * cache at the time of the last check: its clock (`horloge`) is pinned there. So a page never calls,
 * and the client's own rules (fresh, grace, the back-off) answer, from the cache
 * (docs/protocol.md#states).
 *
 * WP-Cron runs only when a page is visited, through a loopback request that some hosts block, and
 * many sites set DISABLE_WP_CRON. When the last check is more than two days old, the schedule is
 * taken as broken: the admin pages check again themselves, as in the default mode. Why the default
 * stays "once per admin page", with the measured cost of each way: ../README.md.
 *
 * PHP 5.6 syntax, like licence-example.php.
 */

if (!defined('ABSPATH')) {
    exit;
}

/** The hook of the daily event. */
define('LICENCE_EXAMPLE_EVENEMENT', 'licence_example_verification');
/** When the last check ran, by the client's clock: pages read the cache as of that second. */
define('LICENCE_EXAMPLE_VERIFIE', 'licence_example_verifie');
/** Two missed daily runs: past this, the admin pages check again themselves. */
define('LICENCE_EXAMPLE_PLANIFIE_MAX', 2 * 86400);

/** Whether the site's owner turned the schedule mode on. */
function licence_example_planifie()
{
    return defined('LICENCE_EXAMPLE_SCHEDULE') && LICENCE_EXAMPLE_SCHEDULE;
}

if (licence_example_planifie()) {
    add_action('init', 'licence_example_planifier');
    add_action(LICENCE_EXAMPLE_EVENEMENT, 'licence_example_verification_planifiee');
    // After every other filter (the test's clock among them): the clock they set is the real one.
    add_filter('licence_example_options', 'licence_example_horloge_planifiee', 1000);
    // Right after the admin check (licence_example_verifier, priority 10), when it really checked.
    add_action('admin_init', 'licence_example_noter_verification', 11);
    // A new key has no verdict in the cache yet: the next admin page checks it at once.
    add_action('add_option_' . LICENCE_EXAMPLE_OPTION, 'licence_example_oublier_verification');
    add_action('update_option_' . LICENCE_EXAMPLE_OPTION, 'licence_example_oublier_verification');
}
register_deactivation_hook(__DIR__ . '/licence-example.php', 'licence_example_deplanifier');

/** The daily event, made once: its first run is due at once (the next page spawns WP-Cron). */
function licence_example_planifier()
{
    if (!wp_next_scheduled(LICENCE_EXAMPLE_EVENEMENT)) {
        wp_schedule_event(time(), 'daily', LICENCE_EXAMPLE_EVENEMENT);
    }
}

function licence_example_deplanifier()
{
    wp_clear_scheduled_hook(LICENCE_EXAMPLE_EVENEMENT);
    delete_option(LICENCE_EXAMPLE_VERIFIE);
}

/** The check, in wp-cron.php: valide() with the real clock calls when the cache asks for it. */
function licence_example_verification_planifiee()
{
    licence_example_valide();
    licence_example_noter_verification();
}

/**
 * Pins the client's clock to the last check, except in the check itself (WP-Cron) or when the
 * schedule is broken (no check for two days, or a clock that went back): then the clock stays
 * the real one, and this request's check is noted as the last one.
 */
function licence_example_horloge_planifiee($options)
{
    $horloge = isset($options['horloge']) ? $options['horloge'] : 'time';
    $maintenant = (int) call_user_func($horloge);
    $verifie = (int) get_option(LICENCE_EXAMPLE_VERIFIE, 0);
    if (wp_doing_cron() || $verifie <= 0 || $maintenant < $verifie || $maintenant - $verifie >= LICENCE_EXAMPLE_PLANIFIE_MAX) {
        licence_example_verification_du_moment($maintenant);
        return $options;
    }
    $options['horloge'] = function () use ($verifie) {
        return $verifie;
    };
    return $options;
}

/** The time of this request's real check, if it makes one (null otherwise). */
function licence_example_verification_du_moment($maintenant = null)
{
    static $moment = null;
    if ($maintenant !== null) {
        $moment = $maintenant;
    }
    return $moment;
}

/** Notes this request's check as the last one: autoloaded, since every admin page reads it. */
function licence_example_noter_verification()
{
    $moment = licence_example_verification_du_moment();
    if ($moment !== null) {
        update_option(LICENCE_EXAMPLE_VERIFIE, $moment, true);
    }
}

function licence_example_oublier_verification()
{
    delete_option(LICENCE_EXAMPLE_VERIFIE);
}
