<?php
/**
 * Plugin Name:       Licence Example
 * Description:       Example of a plugin that checks its licence key with the one-file PHP client (Licence.php). / Exemple d'extension qui vérifie sa clé de licence avec le client PHP en un fichier (Licence.php).
 * Version:           1.0.0
 * Requires at least: 4.9
 * Requires PHP:      5.6
 * License:           MIT
 * Text Domain:       licence-example
 * Domain Path:       /languages
 *
 * PHP 5.6 syntax on purpose, like Licence.php (packages/client-php/README.md): a plugin runs on
 * whatever PHP its buyer's host has. Why each choice is made: ../README.md.
 */

if (!defined('ABSPATH')) {
    exit;
}

// The author's three settings (docs/protocol.md#clients). They are the author's, never the
// buyer's: set them here before you ship, or in wp-config.php (which the tests do).
if (!defined('LICENCE_EXAMPLE_PRODUIT')) {
    define('LICENCE_EXAMPLE_PRODUIT', 'licence-example');
}
if (!defined('LICENCE_EXAMPLE_URL')) {
    define('LICENCE_EXAMPLE_URL', 'https://licence.example.com');
}
if (!defined('LICENCE_EXAMPLE_CLES_PUBLIQUES')) {
    define('LICENCE_EXAMPLE_CLES_PUBLIQUES', '<public key printed by pnpm licence serve>');
}

/** The buyer's key: an option the settings page writes, never a constant in the code. */
define('LICENCE_EXAMPLE_OPTION', 'licence_example_cle');
/** Whether the last check in the admin was a signed refusal: what the front end reads. */
define('LICENCE_EXAMPLE_BLOQUE', 'licence_example_bloque');

/**
 * The cache folder: in wp-content, beside the plugins, not inside this plugin's folder, which an
 * update replaces whole (docs/protocol.md#recommendations: "keep the cache folder out of what
 * deployments wipe"). A lost cache costs one call; a wiped one on every update turns "one call a
 * day" into one per update and leaves no verdict to keep during an outage.
 */
function licence_example_dossier_cache()
{
    return WP_CONTENT_DIR . '/licence-cache';
}

// On init, once the user is known: the buyer's own admin language (get_user_locale()).
add_action('init', 'licence_example_langues');
function licence_example_langues()
{
    load_plugin_textdomain('licence-example', false, dirname(plugin_basename(__FILE__)) . '/languages');
}

/** The client's language follows the admin user's (fr_FR, fr_BE... give French). */
function licence_example_langue()
{
    $locale = function_exists('get_user_locale') ? get_user_locale() : get_locale();
    return strtolower(substr((string) $locale, 0, 2)) === 'fr' ? 'fr' : 'en';
}

/**
 * The request's Licence, built once (docs/protocol.md#recommendations: "call valide() once per
 * request"). The key goes as get_option() gives it: before the buyer saves one, or with a typo,
 * the client answers `no_key` (docs/protocol.md#no-usable-key) and never throws; only the
 * author's constants above can make it throw. The decision is made in the admin only (README:
 * "When the check runs").
 */
function licence_example_licence()
{
    static $licence = null;
    if ($licence !== null) {
        return $licence;
    }
    if (!class_exists('Licence')) {
        require_once __DIR__ . '/Licence.php';
    }
    $options = array(
        'produit' => LICENCE_EXAMPLE_PRODUIT,
        'url' => LICENCE_EXAMPLE_URL,
        'cles_publiques' => LICENCE_EXAMPLE_CLES_PUBLIQUES,
        // The site's configured address, not the request's Host header (docs/protocol.md#hosts-in-clients).
        'hote' => home_url(),
        'langue' => licence_example_langue(),
    );
    // An extension point for the site's owner and for tests (the injectable clock, `horloge`).
    $options = apply_filters('licence_example_options', $options);
    $licence = new Licence(get_option(LICENCE_EXAMPLE_OPTION, ''), licence_example_dossier_cache(), $options);
    return $licence;
}

/** valide(), once per request, remembered for the front end only when it changes. */
function licence_example_valide()
{
    static $valide = null;
    if ($valide !== null) {
        return $valide;
    }
    // False without a usable key too: the plugin is not licensed yet.
    $valide = licence_example_licence()->valide();
    $bloque = $valide ? '0' : '1';
    if (get_option(LICENCE_EXAMPLE_BLOQUE, '0') !== $bloque) {
        update_option(LICENCE_EXAMPLE_BLOQUE, $bloque, true);
    }
    return $valide;
}

/** Whether the product may run: in the admin, this request's check; elsewhere, the last one's. */
function licence_example_actif()
{
    if (is_admin()) {
        return licence_example_valide();
    }
    return get_option(LICENCE_EXAMPLE_BLOQUE, '0') !== '1';
}

// The check: once per admin page, never in AJAX, cron or the front end, which never waits on
// the network (README: "When the check runs").
add_action('admin_init', 'licence_example_verifier');
function licence_example_verifier()
{
    if (wp_doing_ajax() || (defined('DOING_CRON') && DOING_CRON)) {
        return;
    }
    licence_example_valide();
}

add_action('admin_notices', 'licence_example_avis');
function licence_example_avis()
{
    if (!current_user_can('manage_options')) {
        return;
    }
    $licence = licence_example_licence();
    $reglages = esc_url(admin_url('options-general.php?page=licence-example'));
    $verdict = $licence->verdict();
    if ($licence->etat() === 'no_key' && $verdict['motif'] === 'sans_cle') {
        echo '<div class="notice notice-warning licence-example-cle-absente"><p>'
            . esc_html__('Licence Example: enter your licence key to activate the plugin.', 'licence-example')
            . ' <a href="' . $reglages . '">' . esc_html__('Settings', 'licence-example') . '</a></p></div>';
        return;
    }
    if ($licence->etat() === 'no_key') {
        echo '<div class="notice notice-error licence-example-cle-invalide"><p>'
            . esc_html__('Licence Example: this licence key is not valid. Check that you copied it whole.', 'licence-example')
            . ' <a href="' . $reglages . '">' . esc_html__('Settings', 'licence-example') . '</a></p></div>';
        return;
    }
    if (!licence_example_valide()) {
        // The clear notice: message() names the reason, the domains and the date, in the buyer's language.
        echo '<div class="notice notice-error licence-example-refus"><p><strong>'
            . esc_html__('Licence Example is stopped.', 'licence-example') . '</strong> '
            . esc_html($licence->message()) . '</p></div>';
        return;
    }
    if ($licence->essai()) {
        // The discreet notice: a development key or a staging copy (docs/protocol.md#staging-hosts).
        echo '<div class="notice notice-info is-dismissible licence-example-essai"><p>'
            . esc_html__('Licence Example runs in trial mode here.', 'licence-example') . ' '
            . esc_html($licence->message()) . '</p></div>';
    }
}

// The settings page (Settings API): the buyer enters the key there.
add_action('admin_menu', 'licence_example_menu');
function licence_example_menu()
{
    add_options_page(
        __('Licence Example', 'licence-example'),
        __('Licence Example', 'licence-example'),
        'manage_options',
        'licence-example',
        'licence_example_page'
    );
}

add_action('admin_init', 'licence_example_reglages');
function licence_example_reglages()
{
    register_setting('licence_example', LICENCE_EXAMPLE_OPTION, array(
        'type' => 'string',
        'sanitize_callback' => 'licence_example_nettoyer_cle',
        'default' => '',
    ));
    add_settings_section('licence_example_section', __('Licence', 'licence-example'), 'licence_example_section', 'licence-example');
    add_settings_field(
        LICENCE_EXAMPLE_OPTION,
        __('Licence key', 'licence-example'),
        'licence_example_champ',
        'licence-example',
        'licence_example_section',
        array('label_for' => LICENCE_EXAMPLE_OPTION)
    );
}

/** Trims the key; the service normalises it (docs/protocol.md#key-normalisation). */
function licence_example_nettoyer_cle($valeur)
{
    return is_string($valeur) ? trim(sanitize_text_field($valeur)) : '';
}

function licence_example_section()
{
    echo '<p>' . esc_html__('Enter the licence key you received with your purchase.', 'licence-example') . '</p>';
}

function licence_example_champ()
{
    $cle = get_option(LICENCE_EXAMPLE_OPTION, '');
    printf(
        '<input type="text" class="regular-text code" id="%1$s" name="%1$s" value="%2$s" autocomplete="off" spellcheck="false" />',
        esc_attr(LICENCE_EXAMPLE_OPTION),
        esc_attr(is_string($cle) ? $cle : '')
    );
}

function licence_example_page()
{
    if (!current_user_can('manage_options')) {
        return;
    }
    echo '<div class="wrap"><h1>' . esc_html(get_admin_page_title()) . '</h1>';
    if (licence_example_actif()) {
        echo '<p class="licence-example-actif">' . esc_html__('Licence Example is active on this site.', 'licence-example') . '</p>';
    }
    echo '<form action="options.php" method="post">';
    settings_fields('licence_example');
    do_settings_sections('licence-example');
    submit_button();
    echo '</form></div>';
}

// The product itself, on the front end: a line in the footer, while the last admin check allows it.
add_action('wp_footer', 'licence_example_pied');
function licence_example_pied()
{
    if (!licence_example_actif()) {
        return;
    }
    echo '<p class="licence-example-pied">' . esc_html__('Made with Licence Example.', 'licence-example') . '</p>';
}

// The schedule mode (LICENCE_EXAMPLE_SCHEDULE, off by default): the check in a daily WP-Cron
// event instead of the admin pages. README: "When the check runs".
require_once __DIR__ . '/schedule.php';
