// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {IERC20} from "@openzeppelin/contracts/token/ERC20/IERC20.sol";
import {SafeERC20} from "@openzeppelin/contracts/token/ERC20/utils/SafeERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";
import {OutcomeToken} from "../tokens/OutcomeToken.sol";
import {LmsrMarket} from "./LmsrMarket.sol";
import {ILmsrFactory} from "./ILmsrFactory.sol";

/// @title LmsrFactory
/// @notice Creates LMSR markets with a fixed outcome count (deployed twice: BinaryFactory with 2, TernaryFactory
/// with 3). Registers each market in the shared OutcomeToken (which allocates the market id) and moves the creator's
/// seed into it. Admin enables collateral, sets the treasury and the fee defaults; RESOLVER_ROLE resolves or voids
/// markets. Fees: the buy fee is the constant 0; the sell exit and winnings exit fees are the factory's defaults at the
/// moment of creation, stamped into the market for its whole life (later changes of the defaults never touch it).
contract LmsrFactory is ILmsrFactory, AccessControl {
    using SafeERC20 for IERC20;

    /// @notice Role allowed to resolve and void this factory's markets.
    bytes32 public constant RESOLVER_ROLE = keccak256("RESOLVER_ROLE");
    /// @notice Cap on each fee default (and so on each stamped fee).
    uint16 public constant MAX_FEE_BPS = 1_000;
    /// @notice Fee on buys in basis points: always 0 (LmsrMarket.buyFeeBps is the same constant).
    uint16 public constant BUY_FEE_BPS = 0;

    /// @notice The shared outcome token.
    OutcomeToken public immutable outcomeToken;
    /// @notice Outcomes of every market of this factory.
    uint8 public immutable outcomeCount;
    /// @notice Fee recipient.
    address public treasury;
    /// @notice Whether a collateral token is enabled.
    mapping(address token => bool enabled) public collateralEnabled;
    /// @dev Sell exit fee default (bps) stamped into new markets.
    uint16 private _sellExitFeeBps;
    /// @dev Winnings exit fee default (bps) stamped into new markets.
    uint16 private _winningsExitFeeBps;

    /// @param admin Holds DEFAULT_ADMIN_ROLE and RESOLVER_ROLE.
    /// @param sellExitFeeBps_ Initial sell exit fee default, at most MAX_FEE_BPS.
    /// @param winningsExitFeeBps_ Initial winnings exit fee default, at most MAX_FEE_BPS.
    constructor(
        address admin,
        OutcomeToken outcomeToken_,
        uint8 outcomeCount_,
        address treasury_,
        uint16 sellExitFeeBps_,
        uint16 winningsExitFeeBps_
    ) {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
        _grantRole(RESOLVER_ROLE, admin);
        outcomeToken = outcomeToken_;
        outcomeCount = outcomeCount_;
        treasury = treasury_;
        emit TreasurySet(treasury_);
        _setFeeDefaults(sellExitFeeBps_, winningsExitFeeBps_);
    }

    /// @notice Enables or disables `token` as collateral. Only the admin.
    function setCollateral(address token, bool enabled) external onlyRole(DEFAULT_ADMIN_ROLE) {
        collateralEnabled[token] = enabled;
        emit CollateralSet(token, enabled);
    }

    /// @notice Sets the fee recipient. Only the admin.
    function setTreasury(address treasury_) external onlyRole(DEFAULT_ADMIN_ROLE) {
        treasury = treasury_;
        emit TreasurySet(treasury_);
    }

    /// @notice Sets the fee defaults stamped into markets created from now on (existing markets keep theirs). Only the
    /// admin; each value at most MAX_FEE_BPS.
    function setFeeDefaults(uint16 sellExitFeeBps, uint16 winningsExitFeeBps) external onlyRole(DEFAULT_ADMIN_ROLE) {
        _setFeeDefaults(sellExitFeeBps, winningsExitFeeBps);
    }

    /// @notice The fees a market created now is stamped with (GET /discover/fees reads them live).
    function feeDefaults() external view returns (uint16 buyFeeBps, uint16 sellExitFeeBps, uint16 winningsExitFeeBps) {
        return (BUY_FEE_BPS, _sellExitFeeBps, _winningsExitFeeBps);
    }

    /// @notice Whether `account` may resolve and void markets.
    function isResolver(address account) external view returns (bool) {
        return hasRole(RESOLVER_ROLE, account);
    }

    /// @notice Creates a market seeded with `seed` of `collateral` pulled from the caller (approve this factory),
    /// stamped with the current fee defaults. `termsHash` is the hash of the terms the service negotiated with the
    /// creator (any value, zero when there was no negotiation); it is only emitted, never checked or reserved here, so
    /// nobody can block a creation by front-running its terms hash. The service accepts a creation receipt for a
    /// negotiation only when the MarketCreated log carries that negotiation's hash and its creator.
    function createMarket(address collateral, uint256 seed, uint64 closeTime, bytes32 termsHash, string calldata question)
        external
        returns (address market, uint256 marketId)
    {
        if (!collateralEnabled[collateral]) revert LmsrFactoryCollateralNotEnabled(collateral);
        if (closeTime <= block.timestamp) revert LmsrFactoryBadCloseTime(closeTime, block.timestamp);
        if (seed < 100) revert LmsrFactorySeedTooSmall(seed);
        uint16 sellExitFeeBps = _sellExitFeeBps;
        uint16 winningsExitFeeBps = _winningsExitFeeBps;
        LmsrMarket m = new LmsrMarket(
            msg.sender, IERC20(collateral), outcomeToken, outcomeCount, seed, closeTime, sellExitFeeBps, winningsExitFeeBps
        );
        market = address(m);
        marketId = outcomeToken.registerMarket(market, outcomeCount);
        m.initialize(marketId);
        IERC20(collateral).safeTransferFrom(msg.sender, market, seed);
        emit MarketCreated(
            market, marketId, msg.sender, collateral, outcomeCount, m.b(), seed, BUY_FEE_BPS, sellExitFeeBps,
            winningsExitFeeBps, closeTime, keccak256(bytes(question)), question, termsHash
        );
    }

    function _setFeeDefaults(uint16 sellExitFeeBps, uint16 winningsExitFeeBps) private {
        if (sellExitFeeBps > MAX_FEE_BPS || winningsExitFeeBps > MAX_FEE_BPS) {
            revert LmsrFactoryFeeTooHigh(sellExitFeeBps, winningsExitFeeBps, MAX_FEE_BPS);
        }
        _sellExitFeeBps = sellExitFeeBps;
        _winningsExitFeeBps = winningsExitFeeBps;
        emit FeeDefaultsSet(sellExitFeeBps, winningsExitFeeBps);
    }
}
