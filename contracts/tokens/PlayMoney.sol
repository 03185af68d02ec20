// SPDX-License-Identifier: MIT
pragma solidity ^0.8.24;

import {ERC20} from "@openzeppelin/contracts/token/ERC20/ERC20.sol";
import {AccessControl} from "@openzeppelin/contracts/access/AccessControl.sol";

/// @title PlayMoney (PM)
/// @notice The play-money participation token: 6 decimals, minted only by holders of MINTER_ROLE. It has no cash
/// value; the contract offers no path to redeem or withdraw it for anything.
contract PlayMoney is ERC20, AccessControl {
    /// @notice Role allowed to mint PM (the operator that credits purchases and grants).
    bytes32 public constant MINTER_ROLE = keccak256("MINTER_ROLE");

    /// @param admin manages roles.
    constructor(address admin) ERC20("Play Money", "PM") {
        _grantRole(DEFAULT_ADMIN_ROLE, admin);
    }

    /// @notice PM has 6 decimals.
    function decimals() public pure override returns (uint8) {
        return 6;
    }

    /// @notice Mints `amount` PM to `to`. Only MINTER_ROLE.
    function mint(address to, uint256 amount) external onlyRole(MINTER_ROLE) {
        _mint(to, amount);
    }
}
